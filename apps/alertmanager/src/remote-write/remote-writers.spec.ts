import { mkdtemp, readdir, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Registry } from 'prom-client';
import { waitFor } from '@redisx/testing';
import type { RemoteWriteConfig } from '../config';
import { parsePrometheusConfig } from '../config';
import { recordingLogger, type LoggedLine } from '../logging/testing/recording-logger';
import { systemClock } from '../time/clock';
import { realScheduler } from '../time/scheduler';
import { Labels } from '../tsdb/labels';
import { MetricStorage } from '../tsdb/metric-storage';
import { RemoteWriteMetrics } from './remote-write-metrics';
import { RemoteWriters } from './remote-writers';
import { WriteCollector } from './testing/write-collector';

/** Commits samples to the store as one batch; resolves once they are in its log. */
function commit(
  storage: MetricStorage,
  samples: [Record<string, string>, number, number | 'stale'][],
): Promise<void> {
  const appender = storage.appender();
  for (const [labels, t, v] of samples) {
    if (v === 'stale') appender.addStale(Labels.fromRecord(labels), t);
    else appender.add(Labels.fromRecord(labels), t, v);
  }
  return appender.commit().written;
}

/** `remote_write` entries as the configuration file would give them. */
function remoteWrite(yaml: string): RemoteWriteConfig[] {
  return [...parsePrometheusConfig(`remote_write:\n${yaml}`, '/etc/prometheus.yml').remoteWrite];
}

async function metric(registry: Registry, name: string, labels: Record<string, string> = {}) {
  const values = (await registry.getSingleMetric(name)?.get())?.values ?? [];
  const found = values.find((v) =>
    Object.entries(labels).every(([k, value]) => v.labels[k] === value),
  );
  return found?.value;
}

const HOUR = 3_600_000;

describe('remote write', () => {
  let dir: string;
  let collector: WriteCollector;
  let registry: Registry;
  let storage: MetricStorage;
  let writers: RemoteWriters;
  let lines: LoggedLine[];

  /** Opens the store in `dir` and remote writers reading it: a start of the server. */
  async function start(): Promise<void> {
    lines = [];
    registry = new Registry();
    storage = await MetricStorage.open({
      dir,
      retentionMs: 24 * HOUR,
      syncIntervalMs: 5,
      logger: recordingLogger(lines),
    });
    writers = new RemoteWriters({
      source: storage,
      metrics: new RemoteWriteMetrics(registry),
      clock: systemClock,
      scheduler: realScheduler(systemClock),
      logger: recordingLogger(lines),
      userAgent: 'redisx-alertmanager/test',
      storageDir: dir,
    });
  }

  /** Stops the writers and closes the store, as a stopping server does. */
  async function stop(): Promise<void> {
    writers.stop();
    await storage.close();
  }

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'remote-write-'));
    collector = await new WriteCollector().start();
    await start();
  });

  afterEach(async () => {
    await stop();
    await collector.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('sends with upstream headers: external labels added, relabeled, sorted, staleness bits', async () => {
    writers.prepare(
      remoteWrite(`  - url: ${collector.url}
    name: main
    headers: {X-Scope-OrgID: team-a}
    queue_config: {batch_send_deadline: 20ms}
    write_relabel_configs:
      - source_labels: [__name__]
        regex: dropped_.*
        action: drop
      - regex: secret
        action: labeldrop
`),
      { zone: 'z1', job: 'external' },
    )();
    await commit(storage, [
      [{ __name__: 'up', job: 'node', secret: 'x', instance: 'a:1' }, 1000, 1],
      [{ __name__: 'dropped_metric', job: 'node' }, 1000, 5],
      [{ __name__: 'up', job: 'node', secret: 'x', instance: 'a:1' }, 2000, 'stale'],
    ]);
    await waitFor('the batch', () => collector.samples.length === 2);
    const [request] = collector.requests;
    expect(request.headers).toMatchObject({
      'content-encoding': 'snappy',
      'content-type': 'application/x-protobuf',
      'user-agent': 'redisx-alertmanager/test',
      'x-prometheus-remote-write-version': '0.1.0',
      'x-scope-orgid': 'team-a',
    });
    expect(collector.samples).toEqual([
      {
        labels: { __name__: 'up', instance: 'a:1', job: 'node', zone: 'z1' },
        names: ['__name__', 'instance', 'job', 'zone'],
        t: 1000,
        v: 1,
        stale: false,
      },
      {
        labels: { __name__: 'up', instance: 'a:1', job: 'node', zone: 'z1' },
        names: ['__name__', 'instance', 'job', 'zone'],
        t: 2000,
        v: NaN,
        stale: true,
      },
    ]);
    const remote = { remote_name: 'main', url: collector.url };
    await waitFor(
      'the counters',
      async () =>
        (await metric(registry, 'prometheus_remote_storage_samples_pending', remote)) === 0,
    );
    expect({
      in: await metric(registry, 'prometheus_remote_storage_samples_in_total'),
      highestIn: await metric(registry, 'prometheus_remote_storage_highest_timestamp_in_seconds'),
      sent: await metric(registry, 'prometheus_remote_storage_samples_total', remote),
      dropped: await metric(registry, 'prometheus_remote_storage_samples_dropped_total', remote),
      failed: await metric(registry, 'prometheus_remote_storage_samples_failed_total', remote),
      shards: await metric(registry, 'prometheus_remote_storage_shards', remote),
      highestSent: await metric(
        registry,
        'prometheus_remote_storage_queue_highest_sent_timestamp_seconds',
        remote,
      ),
    }).toEqual({ in: 3, highestIn: 2, sent: 2, dropped: 1, failed: 0, shards: 1, highestSent: 2 });
    expect(await metric(registry, 'prometheus_remote_storage_bytes_total', remote)).toBeGreaterThan(
      0,
    );
  });

  it('retries 5xx with backoff, keeping later samples queued, and catches up in order', async () => {
    let down = true;
    collector.answer = () => (down ? 500 : 204);
    writers.prepare(
      remoteWrite(`  - url: ${collector.url}
    name: r
    queue_config: {max_samples_per_send: 5, batch_send_deadline: 10ms, min_backoff: 5ms, max_backoff: 20ms}
`),
      {},
    )();
    for (let t = 1; t <= 20; t++) await commit(storage, [[{ __name__: 'm' }, t * 1000, t]]);
    await waitFor('a few failed tries', () => collector.requests.length >= 4);
    expect(collector.samples).toEqual([]);
    down = false;
    await waitFor('the catch-up', () => collector.samples.length === 20);
    expect(collector.samples.map((s) => s.v)).toEqual([...Array(20).keys()].map((i) => i + 1));
    const remote = { remote_name: 'r', url: collector.url };
    expect(
      await metric(registry, 'prometheus_remote_storage_samples_retried_total', remote),
    ).toBeGreaterThanOrEqual(15);
    expect(await metric(registry, 'prometheus_remote_storage_samples_failed_total', remote)).toBe(
      0,
    );
  });

  it.each([
    ['400', 400, false, 1],
    ['429 without retry_on_http_429', 429, false, 1],
    ['429 with retry_on_http_429', 429, true, 2],
  ])('on %s: gives the batch up or retries it', async (_name, status, retry429, tries) => {
    let answers = 0;
    collector.answer = () => (answers++ === 0 ? status : 204);
    writers.prepare(
      remoteWrite(`  - url: ${collector.url}
    name: r
    queue_config: {batch_send_deadline: 10ms, min_backoff: 5ms, retry_on_http_429: ${retry429}}
`),
      {},
    )();
    await commit(storage, [[{ __name__: 'm' }, 1000, 1]]);
    await waitFor('the answers', () => collector.requests.length === tries);
    await commit(storage, [[{ __name__: 'm' }, 2000, 2]]);
    await waitFor('the next batch', () => collector.samples.some((s) => s.t === 2000));
    const remote = { remote_name: 'r', url: collector.url };
    expect(collector.samples.map((s) => s.t)).toEqual(retry429 ? [1000, 2000] : [2000]);
    expect(await metric(registry, 'prometheus_remote_storage_samples_failed_total', remote)).toBe(
      retry429 ? 0 : 1,
    );
  });

  it('reads no further into the log than the queue holds, and sends it all once the remote is back', async () => {
    let down = true;
    collector.answer = () => (down ? 503 : 204);
    writers.prepare(
      remoteWrite(`  - url: ${collector.url}
    name: r
    queue_config: {capacity: 2, max_shards: 2, max_samples_per_send: 2, batch_send_deadline: 10ms, min_backoff: 20ms, max_backoff: 20ms}
`),
      {},
    )();
    for (let t = 1; t <= 10; t++) await commit(storage, [[{ __name__: 'm' }, t, t]]);
    await waitFor('a few failed tries', () => collector.requests.length >= 3);
    const remote = { remote_name: 'r', url: collector.url };
    // The other samples wait in the log: none is dropped.
    expect(await metric(registry, 'prometheus_remote_storage_samples_pending', remote)).toBe(4);
    expect(await metric(registry, 'prometheus_remote_storage_samples_dropped_total', remote)).toBe(
      0,
    );
    expect(await metric(registry, 'prometheus_remote_storage_shard_capacity', remote)).toBe(4);
    down = false;
    await waitFor('the catch-up', () => collector.samples.length === 10);
    expect(collector.samples.map((s) => s.t)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('resumes after a restart where it stopped: what waited is sent, what was sent is not sent again', async () => {
    let down = false;
    collector.answer = () => (down ? 503 : 204);
    const config = remoteWrite(`  - url: ${collector.url}
    name: r
    queue_config: {batch_send_deadline: 10ms, min_backoff: 20ms, max_backoff: 20ms}
`);
    writers.prepare(config, {})();
    for (let t = 1; t <= 5; t++) await commit(storage, [[{ __name__: 'm' }, t * 1000, t]]);
    await waitFor('the first samples', () => collector.samples.length === 5);
    down = true;
    for (let t = 6; t <= 12; t++) await commit(storage, [[{ __name__: 'm' }, t * 1000, t]]);
    await waitFor('a failed try', () => collector.requests.some((r) => r.status === 503));
    await stop();
    down = false;
    await start();
    writers.prepare(config, {})();
    await waitFor('the rest', () => collector.samples.length === 12);
    expect(collector.samples.map((s) => s.v)).toEqual([...Array(12).keys()].map((i) => i + 1));
  });

  it('keeps the log segments a remote has still to read through checkpoints, and lets them go once sent', async () => {
    let down = true;
    collector.answer = () => (down ? 503 : 204);
    writers.prepare(
      remoteWrite(`  - url: ${collector.url}
    name: r
    queue_config: {capacity: 1, max_shards: 1, max_samples_per_send: 1, batch_send_deadline: 10ms, min_backoff: 20ms, max_backoff: 20ms}
`),
      {},
    )();
    const now = Date.now();
    let t = now - 60_000;
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 4; i++) await commit(storage, [[{ __name__: 'm' }, (t += 1000), t]]);
      await storage.checkpoint(now);
    }
    const segments = async () => (await readdir(dir)).filter((f) => /^metrics-\d+\.log$/.test(f));
    expect(await segments()).toHaveLength(4);
    down = false;
    await waitFor('the catch-up', () => collector.samples.length === 12);
    expect(collector.samples.map((s) => s.t)).toEqual(
      [...Array(12).keys()].map((i) => now - 60_000 + (i + 1) * 1000),
    );
    await storage.checkpoint(now);
    expect(await segments()).toHaveLength(1);
  });

  it('lets a held segment go once the retention no longer keeps it, and says so when it skips it', async () => {
    collector.answer = () => 503;
    writers.prepare(
      remoteWrite(`  - url: ${collector.url}
    name: r
    queue_config: {capacity: 1, max_shards: 1, max_samples_per_send: 1, batch_send_deadline: 10ms, min_backoff: 20ms, max_backoff: 20ms}
`),
      {},
    )();
    const now = Date.now();
    // Sample 1 is read into the queue (it holds one); 2 and 3 wait in the next segment.
    await commit(storage, [[{ __name__: 'm' }, now + 1, 1]]);
    await waitFor('the first try', () => collector.requests.length > 0);
    await storage.checkpoint(now);
    for (let i = 2; i <= 3; i++) await commit(storage, [[{ __name__: 'm' }, now + i, i]]);
    await storage.checkpoint(now);
    await commit(storage, [[{ __name__: 'm' }, now + 4, 4]]);
    // Both older segments were last written two days ago: past the retention.
    const old = (Date.now() - 48 * HOUR) / 1000;
    for (const segment of [0, 1]) await utimes(join(dir, `metrics-${segment}.log`), old, old);
    await storage.checkpoint(now);
    const segments = (await readdir(dir)).filter((f) => /^metrics-\d+\.log$/.test(f)).sort();
    expect(segments).toEqual(['metrics-2.log', 'metrics-3.log']);
    collector.answer = () => 204;
    await waitFor('the samples still in the log', () => collector.samples.some((s) => s.v === 4));
    // The first sample was read already; the two behind it went with their segment.
    expect(collector.samples.map((s) => s.v)).toEqual([1, 4]);
    expect(
      lines.some((l) => l.msg === 'Metric log segments were removed before they were read'),
    ).toBe(true);
  });

  it('keeps an unchanged queue across a reload, replaces a changed one, stops a removed one', async () => {
    const config = remoteWrite(`  - url: ${collector.url}
    queue_config: {batch_send_deadline: 10ms}
`);
    writers.prepare(config, {})();
    const name = (await registry.getSingleMetric('prometheus_remote_storage_shards')?.get())
      ?.values[0].labels['remote_name'];
    expect(name).toMatch(/^[0-9a-f]{6}$/);
    await commit(storage, [[{ __name__: 'm' }, 1000, 1]]);
    await waitFor('the first batch', () => collector.samples.length === 1);
    // The same entry, read again: the queue and its counters go on.
    writers.prepare(
      remoteWrite(`  - url: ${collector.url}\n    queue_config: {batch_send_deadline: 10ms}\n`),
      {},
    )();
    await commit(storage, [[{ __name__: 'm' }, 2000, 2]]);
    await waitFor('the second batch', () => collector.samples.length === 2);
    expect(
      await metric(registry, 'prometheus_remote_storage_samples_total', {
        remote_name: name as string,
      }),
    ).toBe(2);
    expect(() => writers.prepare([...config, ...config], {})).toThrow(
      `duplicate remote write configs are not allowed, found duplicate for URL: ${collector.url}`,
    );
    // A changed entry: a new queue under a new name, the old one's series gone.
    writers.prepare(
      remoteWrite(`  - url: ${collector.url}\n    queue_config: {batch_send_deadline: 11ms}\n`),
      {},
    )();
    const names = (
      await registry.getSingleMetric('prometheus_remote_storage_shards')?.get()
    )?.values.map((v) => v.labels['remote_name']);
    expect(names).toHaveLength(1);
    expect(names?.[0]).not.toBe(name);
    writers.prepare([], {})();
    expect(await metric(registry, 'prometheus_remote_storage_shards')).toBeUndefined();
    const sent = collector.samples.length;
    await commit(storage, [[{ __name__: 'm' }, 3000, 3]]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(collector.samples).toHaveLength(sent);
  });

  it('refuses an invalid write relabeling rule when the configuration is prepared', () => {
    expect(() =>
      writers.prepare(
        remoteWrite(
          `  - url: ${collector.url}\n    write_relabel_configs:\n      - action: nope\n`,
        ),
        {},
      ),
    ).toThrow(/unknown relabel action "nope"/);
  });
});
