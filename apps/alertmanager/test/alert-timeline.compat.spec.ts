import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServerProcess, type ServerProcess } from './support/server-process';
import { driveTimeline, timelineConfig } from './support/timeline';
import { startUpstream, UPSTREAM_BIN } from './support/upstream-alertmanager';
import { WebhookCollector, type Delivery } from './support/webhook-collector';
import { describeWhen } from '@redisx/testing';

/**
 * The same configuration and the same alert timeline, sent at the same moment to this server and
 * to upstream Alertmanager (Debian's prometheus-alertmanager 0.25, when installed): the webhook
 * deliveries must match in receivers, group keys, batches, statuses and payload fields, and in
 * timing within 150 ms. `alert-timeline.e2e.spec.ts` checks the same timeline on its own.
 */
const describeWithUpstream = describeWhen(
  !!UPSTREAM_BIN,
  'upstream comparison skipped: prometheus-alertmanager is not installed',
);

/** A delivery with what legitimately differs between two servers taken out. */
function comparable(d: Delivery) {
  const body: Partial<Delivery['body']> & Pick<Delivery['body'], 'alerts' | 'groupKey'> = {
    ...d.body,
  };
  delete body.externalURL;
  return {
    ...body,
    alerts: body.alerts.map(({ startsAt, endsAt, ...alert }) => ({
      ...alert,
      // Times the server set itself differ by the two servers' receive times; only their shape
      // is compared. Times a client sent are compared exactly.
      startsAt: alert.labels['scenario'] === 'old' ? startsAt : 'set',
      endsAt: endsAt === '0001-01-01T00:00:00Z' ? endsAt : 'set',
    })),
  };
}

describeWithUpstream('alert timeline, side by side with upstream Alertmanager', () => {
  let dir: string;
  const ours = new WebhookCollector();
  const theirs = new WebhookCollector();
  let servers: ServerProcess[] = [];
  let t0: number;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'am-compat-'));
    await Promise.all([ours.start(), theirs.start()]);
    await writeFile(join(dir, 'ours.yml'), await timelineConfig(ours.url));
    await writeFile(join(dir, 'theirs.yml'), await timelineConfig(theirs.url));
    servers = await Promise.all([
      startServerProcess(join(dir, 'ours.yml')),
      startUpstream(join(dir, 'theirs.yml')),
    ]);
    t0 = await driveTimeline([
      { url: servers[0].url, collector: ours },
      { url: servers[1].url, collector: theirs },
    ]);
  }, 40_000);

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await Promise.all([ours.stop(), theirs.stop()]);
    await rm(dir, { recursive: true, force: true });
  });

  it('delivers to the same receivers the same number of times', () => {
    const count = (c: WebhookCollector) =>
      Object.fromEntries(
        [...new Set(c.deliveries.map((d) => d.path))].sort().map((p) => [p, c.to(p).length]),
      );
    expect(count(ours)).toEqual(count(theirs));
  });

  it('sends the same payloads, field by field', () => {
    const paths = [...new Set(theirs.deliveries.map((d) => d.path))].sort();
    // Groups of one receiver flush independently: compare each group's deliveries in order.
    const byGroup = (c: WebhookCollector, path: string) =>
      c
        .to(path)
        .map(comparable)
        .sort((a, b) => a.groupKey.localeCompare(b.groupKey));
    for (const path of paths) {
      expect({ path, payloads: byGroup(ours, path) }).toEqual({
        path,
        payloads: byGroup(theirs, path),
      });
    }
  });

  it('sends each batch within 150 ms of upstream', () => {
    // A retried delivery lands after random backoff jitter (±50%, as upstream's), on both sides:
    // its time cannot match; alert-timeline.e2e.spec.ts bounds it instead.
    const jittered = new Set(['/retry']);
    const paths = [...new Set(theirs.deliveries.map((d) => d.path))].filter(
      (p) => !jittered.has(p),
    );
    expect(paths.length).toBeGreaterThanOrEqual(10);
    for (const path of paths) {
      const mine = ours.to(path).map((d) => d.at - t0);
      const upstream = theirs.to(path).map((d) => d.at - t0);
      mine.forEach((at, i) =>
        expect({ path, i, drift: Math.abs(at - upstream[i]) <= 150 }).toEqual({
          path,
          i,
          drift: true,
        }),
      );
    }
  });

  it('sends the same headers that matter to a receiver', () => {
    const first = (c: WebhookCollector) => c.to('/grouping')[0].headers;
    expect(first(ours)['content-type']).toBe(first(theirs)['content-type']);
    expect(first(ours)['user-agent']).toMatch(/^Alertmanager\//);
  });
});
