import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServerProcess, type ServerProcess } from './support/server-process';
import { driveTimeline, timelineConfig } from './support/timeline';
import { WebhookCollector, type Delivery } from './support/webhook-collector';

/**
 * Upstream-style acceptance tests: the real server with tiny timers, alerts pushed on a timeline,
 * webhook deliveries collected on a real loopback receiver, each expected batch checked at its
 * flush and nothing else arriving. All scenarios share one server and run at once, each on its
 * own route and receiver path. A busy machine only ever delays a delivery: each must come no
 * earlier than its flush (less the clocks' 150 ms of slack) and nearer to it than to the next
 * flush; how close to its flush a delivery comes on an idle machine is measured by
 * `tools/bench/notification-flush.bench.mjs`, not asserted here.
 */
const GROUP_WAIT = 1000;
const GROUP_INTERVAL = 2000;
/** How early a delivery may seem: the timeline's start is taken on this side of the server. */
const EARLY_MS = 150;
/** How late a delivery may come and still be told from the next flush's. */
const LATE_MS = GROUP_INTERVAL / 2 - 100;

describe('alert timeline', () => {
  let dir: string;
  let collector: WebhookCollector;
  let server: ServerProcess;
  let t0: number;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'am-timeline-'));
    collector = await new WebhookCollector().start();
    const configFile = join(dir, 'alertmanager.yml');
    await writeFile(configFile, await timelineConfig(collector.url));
    server = await startServerProcess(configFile);
    t0 = await driveTimeline([{ url: server.url, collector }]);
  }, 30_000);

  afterAll(async () => {
    await server?.stop();
    await collector?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  /** Offsets of the deliveries to `path` from the start of the timeline. */
  const offsets = (path: string) => collector.to(path).map((d) => d.at - t0);
  const expectAt = (deliveries: Delivery[], expected: number[]) => {
    expect(deliveries).toHaveLength(expected.length);
    deliveries.forEach((d, i) => {
      expect(d.at - t0 - expected[i]).toBeGreaterThanOrEqual(-EARLY_MS);
      expect(d.at - t0 - expected[i]).toBeLessThanOrEqual(LATE_MS);
    });
  };
  const names = (d: Delivery) =>
    d.body.alerts.map((a) => `${a.labels['instance'] ?? ''}:${a.status}`);

  it('groups alerts and waits group_wait, then adds new ones at the next group_interval', () => {
    const got = collector.to('/grouping');
    expectAt(got, [GROUP_WAIT, GROUP_WAIT + GROUP_INTERVAL]);
    expect(names(got[0])).toEqual(['a:firing', 'b:firing']);
    expect(names(got[1])).toEqual(['a:firing', 'b:firing', 'c:firing']);
    expect(got[0].body).toMatchObject({
      receiver: 'grouping',
      status: 'firing',
      groupLabels: { alertname: 'G' },
      commonLabels: { alertname: 'G', scenario: 'grouping' },
      version: '4',
      groupKey: '{}/{scenario="grouping"}:{alertname="G"}',
      truncatedAlerts: 0,
    });
  });

  it('skips group_wait for an alert that started long ago', () => {
    expectAt(collector.to('/old'), [0]);
  });

  it('repeats an unchanged group only at a flush, once repeat_interval has passed', () => {
    // Flushes at 1, 3, 5, 7 s; the log entry from 1 s is older than 3 s first at 5 s.
    expectAt(collector.to('/repeat'), [GROUP_WAIT, GROUP_WAIT + 2 * GROUP_INTERVAL]);
  });

  it('sends the resolution at the next flush when send_resolved is on', () => {
    const got = collector.to('/resolved');
    expectAt(got, [GROUP_WAIT, GROUP_WAIT + GROUP_INTERVAL]);
    expect(got[1].body.status).toBe('resolved');
    expect(got[1].body.alerts[0].status).toBe('resolved');
    expect(got[1].body.alerts[0].endsAt).not.toBe('0001-01-01T00:00:00Z');
    expect(got[0].body.alerts[0].endsAt).toBe('0001-01-01T00:00:00Z');
  });

  it('sends nothing for a resolution when send_resolved is off', () => {
    expectAt(collector.to('/quiet'), [GROUP_WAIT]);
  });

  it('notifies every matching route when continue is set', () => {
    expectAt(collector.to('/first'), [GROUP_WAIT]);
    expectAt(collector.to('/second'), [GROUP_WAIT]);
    expect(collector.to('/second')[0].body.groupKey).toBe(
      '{}/{scenario="continue"}:{alertname="C"}',
    );
  });

  it('inhibits the warning that shares the critical alert instance, not the other one', () => {
    const got = collector.to('/inhibit');
    const bySeverity = Object.fromEntries(
      got.map((d) => [d.body.groupLabels['severity'], names(d)]),
    );
    expect(bySeverity).toEqual({ critical: ['x:firing'], warning: ['y:firing'] });
    expectAt(got, [GROUP_WAIT, GROUP_WAIT]);
  });

  it('sends nothing while a mute interval is active or outside the active intervals', () => {
    expect(offsets('/muted')).toEqual([]);
    expect(offsets('/inactive')).toEqual([]);
    expectAt(collector.to('/active'), [GROUP_WAIT]);
  });

  it('retries a failing receiver and delivers once', () => {
    const got = collector.to('/retry');
    expect(got).toHaveLength(1);
    // Two 503s, then backoff retries (first immediate, then ~0.5 s and ~0.75 s with jitter).
    expect(got[0].at - t0).toBeGreaterThan(GROUP_WAIT);
    expect(got[0].at - t0).toBeLessThan(GROUP_WAIT + GROUP_INTERVAL + LATE_MS);
  });

  it('does not retry a 4xx answer, and tries again at the next flush', () => {
    expectAt(collector.to('/refused'), [GROUP_WAIT + GROUP_INTERVAL]);
  });

  it('sends nothing to a receiver no alert routes to', () => {
    expect(offsets('/default')).toEqual([]);
  });
});
