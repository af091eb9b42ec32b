import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { testAlert } from '../../alerts/testing/test-alert';
import { parseConfig } from '../../config';
import { StreamLogger } from '../../logging/stream-logger';
import type { Notifier } from '../../notify/notifier';
import type { NotifyContext } from '../../notify/notify-context';
import { defaultTemplates } from '../../template';
import { PushoverNotifier } from '../pushover/pushover.notifier';
import { buildReceivers } from '../registry';

/** The external URL the notifiers of the cases run with. */
export const EXTERNAL_URL = 'http://am.example:9093';

const NOW = Date.parse('2026-01-01T00:00:00Z');

/** One group's alert, firing or resolved a minute before the flush. */
export function caseAlerts(resolved: boolean) {
  return [
    testAlert(
      { alertname: 'DiskFull', instance: 'a', severity: 'critical' },
      {
        annotations: { summary: 'Disk full on a' },
        startsAt: NOW - 3_600_000,
        generatorURL: 'http://prometheus.example/graph',
        ...(resolved ? { endsAt: NOW - 60_000 } : {}),
      },
    ),
  ];
}

/** The flush of the group `{alertname="DiskFull"}` of receiver `team`. */
export function caseContext(): NotifyContext {
  return {
    now: NOW,
    groupKey: '{}:{alertname="DiskFull"}',
    receiver: 'team',
    groupLabels: { alertname: 'DiskFull' },
    routeId: '{}',
    repeatInterval: 3_600_000,
    muteTimeIntervals: [],
    activeTimeIntervals: [],
    deadline: NOW + 60_000,
    signal: new AbortController().signal,
  };
}

/**
 * Builds the notifier of one config entry through the configuration loader and the receiver
 * registry. `$URL` in the YAML is the loopback API, `$DIR` a folder holding `files`. Pushover's
 * endpoint is fixed upstream, so its notifier is pointed at the loopback API directly.
 */
export async function notifierFor(input: {
  list: string;
  entry: string;
  global?: string;
  files?: Record<string, string>;
  apiUrl: string;
  dir: string;
}): Promise<Notifier> {
  for (const [name, text] of Object.entries(input.files ?? {}))
    await writeFile(join(input.dir, name), text);
  const fill = (text: string) =>
    text.replaceAll('$URL', input.apiUrl).replaceAll('$DIR', input.dir);
  const yaml = `${input.global ? `global: ${fill(input.global)}\n` : ''}route: {receiver: team}
receivers:
  - name: team
    ${input.list}:
      - ${fill(input.entry)}
`;
  const config = parseConfig(yaml, join(input.dir, 'alertmanager.yml'));
  if (input.list === 'pushover_configs') {
    const [entry] = config.receivers[0].pushover_configs;
    return new PushoverNotifier(
      entry,
      defaultTemplates(),
      EXTERNAL_URL,
      `${input.apiUrl}/1/messages.json`,
    );
  }
  const logger = new StreamLogger('error', 'logfmt', () => undefined);
  const built = buildReceivers(config, { externalUrl: EXTERNAL_URL, logger });
  return (built.get('team') ?? [])[0].notifier;
}
