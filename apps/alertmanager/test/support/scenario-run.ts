import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  EXTERNAL_URL,
  FIXED_TIMES,
  postScenarioAlerts,
  type ScenarioTimes,
  scenarioConfig,
  startUpstreamAt,
} from './notification-scenario';
import { startServerProcess, type ServerProcess } from './server-process';
import { SmtpTestServer } from './smtp-test-server';
import { recordingOf, type Recording } from './upstream-recording';
import { WebhookCollector } from './webhook-collector';

/** The paths of the integrations both servers deliver to. */
export const SCENARIO_PATHS = [
  '/slack-default',
  '/slack-custom',
  '/pagerduty-default',
  '/pagerduty-custom',
  '/webhook',
  // Path prefixes: Opsgenie closes at another path, Telegram adds the bot token and method.
  '/opsgenie',
  '/victorops',
  '/telegram',
  '/discord',
  '/webex',
];

const countTo = (http: WebhookCollector, prefix: string) =>
  http.deliveries.filter((d) => d.path.split('?')[0].startsWith(prefix)).length;

async function waitUntil(done: () => boolean): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error("the scenario's notifications did not all arrive");
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * Runs the notification scenario on upstream Alertmanager or on this server: the firing
 * alerts, then the same alerts resolved, each delivered to every integration; returns what the
 * loopback HTTP and SMTP receivers recorded.
 */
export async function runScenario(
  upstream: boolean,
  dir: string,
  times: ScenarioTimes = FIXED_TIMES,
): Promise<Recording> {
  const http = await new WebhookCollector().start();
  const smtp = await new SmtpTestServer({ starttls: false }).start();
  const file = join(dir, upstream ? 'theirs.yml' : 'ours.yml');
  await writeFile(file, scenarioConfig({ http: http.url, smtp: smtp.address }));
  let server: ServerProcess | undefined;
  try {
    server = upstream
      ? await startUpstreamAt(file)
      : await startServerProcess(file, [
          `--web.external-url=${EXTERNAL_URL}`,
          '--web.route-prefix=/',
        ]);
    const prefixes = SCENARIO_PATHS;
    await postScenarioAlerts(server.url, false, times);
    await waitUntil(() => prefixes.every((p) => countTo(http, p) >= 1) && smtp.mails.length >= 2);
    // The resolution is posted once its end has passed, so that the alerts are resolved.
    const endsIn = Date.parse(times.endsAt) + 10 - Date.now();
    if (endsIn > 0) await new Promise((r) => setTimeout(r, endsIn));
    await postScenarioAlerts(server.url, true, times);
    await waitUntil(() => prefixes.every((p) => countTo(http, p) >= 2) && smtp.mails.length >= 4);
    return recordingOf(http, smtp, prefixes);
  } finally {
    await server?.stop();
    await http.stop();
    await smtp.stop();
  }
}
