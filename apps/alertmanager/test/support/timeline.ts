import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isoIn, postAlerts } from './alerts-client';
import type { WebhookCollector } from './webhook-collector';

/** The acceptance timeline's configuration with its receivers pointed at `collectorUrl`. */
export async function timelineConfig(collectorUrl: string): Promise<string> {
  const template = await readFile(join(__dirname, '..', 'testdata', 'timeline.yml'), 'utf8');
  return template.replaceAll('RECEIVER_URL', collectorUrl);
}

/** How long the timeline runs: past the repeat at 5 s and one quiet flush after it. */
export const TIMELINE_MS = 7500;

/**
 * Pushes the acceptance timeline to each server at the same moment: every scenario's alerts at
 * t0, then one new group member and two resolutions at t0 + 1.5 s. Returns t0.
 */
export async function driveTimeline(
  servers: { url: string; collector: WebhookCollector }[],
): Promise<number> {
  for (const { collector } of servers) {
    collector.failNext('/retry', 2, 503);
    collector.failNext('/refused', 1, 400);
  }
  const post = (labels: Record<string, string>, extra = {}) =>
    Promise.all(
      servers.map(({ url }) =>
        postAlerts(url, [{ labels, annotations: { summary: labels['alertname'] }, ...extra }]),
      ),
    );
  const t0 = Date.now();
  await Promise.all([
    post({ alertname: 'G', scenario: 'grouping', instance: 'a' }),
    post({ alertname: 'G', scenario: 'grouping', instance: 'b' }),
    post({ alertname: 'Old', scenario: 'old' }, { startsAt: isoIn(-3_600_000) }),
    post({ alertname: 'R', scenario: 'repeat' }),
    post({ alertname: 'Res', scenario: 'resolved' }),
    post({ alertname: 'Q', scenario: 'quiet' }),
    post({ alertname: 'C', scenario: 'continue' }),
    post({ alertname: 'I', scenario: 'inhibit', severity: 'critical', instance: 'x' }),
    post({ alertname: 'I', scenario: 'inhibit', severity: 'warning', instance: 'x' }),
    post({ alertname: 'I', scenario: 'inhibit', severity: 'warning', instance: 'y' }),
    post({ alertname: 'M', scenario: 'muted' }),
    post({ alertname: 'N', scenario: 'inactive' }),
    post({ alertname: 'A', scenario: 'active' }),
    post({ alertname: 'T', scenario: 'retry' }),
    post({ alertname: 'F', scenario: 'refused' }),
  ]);
  const later = new Promise<void>((resolve) =>
    setTimeout(() => {
      void Promise.all([
        post({ alertname: 'G', scenario: 'grouping', instance: 'c' }),
        post({ alertname: 'Res', scenario: 'resolved' }, { endsAt: isoIn(0) }),
        post({ alertname: 'Q', scenario: 'quiet' }, { endsAt: isoIn(0) }),
      ]).then(() => resolve());
    }, 1500),
  );
  await later;
  await new Promise((resolve) => setTimeout(resolve, TIMELINE_MS - (Date.now() - t0)));
  return t0;
}
