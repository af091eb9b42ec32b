import { Registry } from 'prom-client';
import { waitFor } from '@redisx/testing';
import type { RemoteWriteConfig } from '../config';
import { parsePrometheusConfig } from '../config';
import { recordingLogger } from '../logging/testing/recording-logger';
import { systemClock } from '../time/clock';
import { realScheduler } from '../time/scheduler';
import { Labels } from '../tsdb/labels';
import type { AppendedBatch, AppendListener } from '../tsdb/metric-storage';
import { RemoteWriteMetrics } from './remote-write-metrics';
import { RemoteWriters } from './remote-writers';
import { WriteCollector } from './testing/write-collector';

/** A metric store stand-in: hands batches to its listeners as the store does after a commit. */
class FakeSource {
  readonly listeners: AppendListener[] = [];
  onAppend(listener: AppendListener): () => void {
    this.listeners.push(listener);
    return () => void this.listeners.splice(this.listeners.indexOf(listener), 1);
  }
  commit(samples: [Record<string, string>, number, number | 'stale'][]): void {
    const batch: AppendedBatch = {
      labels: samples.map(([l]) => Labels.fromRecord(l)),
      t: samples.map(([, t]) => t),
      v: samples.map(([, , v]) => (v === 'stale' ? NaN : v)),
      stale: samples.map(([, , v]) => v === 'stale'),
    };
    for (const listener of this.listeners) listener(batch);
  }
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

describe('remote write', () => {
  let collector: WriteCollector;
  let registry: Registry;
  let source: FakeSource;
  let writers: RemoteWriters;

  beforeEach(async () => {
    collector = await new WriteCollector().start();
    registry = new Registry();
    source = new FakeSource();
    writers = new RemoteWriters({
      source,
      metrics: new RemoteWriteMetrics(registry),
      clock: systemClock,
      scheduler: realScheduler(systemClock),
      logger: recordingLogger(),
      userAgent: 'redisx-alertmanager/test',
    });
  });

  afterEach(async () => {
    writers.stop();
    await collector.stop();
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
    source.commit([
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
    for (let t = 1; t <= 20; t++) source.commit([[{ __name__: 'm' }, t * 1000, t]]);
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
    source.commit([[{ __name__: 'm' }, 1000, 1]]);
    await waitFor('the answers', () => collector.requests.length === tries);
    source.commit([[{ __name__: 'm' }, 2000, 2]]);
    await waitFor('the next batch', () => collector.samples.some((s) => s.t === 2000));
    const remote = { remote_name: 'r', url: collector.url };
    expect(collector.samples.map((s) => s.t)).toEqual(retry429 ? [1000, 2000] : [2000]);
    expect(await metric(registry, 'prometheus_remote_storage_samples_failed_total', remote)).toBe(
      retry429 ? 0 : 1,
    );
  });

  it('drops and counts samples that do not fit in the queue', async () => {
    collector.answer = () => 503;
    writers.prepare(
      remoteWrite(`  - url: ${collector.url}
    name: r
    queue_config: {capacity: 2, max_shards: 2, batch_send_deadline: 10ms, min_backoff: 50ms}
`),
      {},
    )();
    for (let t = 1; t <= 10; t++) source.commit([[{ __name__: 'm' }, t, t]]);
    const remote = { remote_name: 'r', url: collector.url };
    expect(await metric(registry, 'prometheus_remote_storage_samples_dropped_total', remote)).toBe(
      6,
    );
    expect(await metric(registry, 'prometheus_remote_storage_samples_pending', remote)).toBe(4);
    expect(await metric(registry, 'prometheus_remote_storage_shard_capacity', remote)).toBe(4);
  });

  it('keeps an unchanged queue across a reload, replaces a changed one, stops a removed one', async () => {
    const config = remoteWrite(`  - url: ${collector.url}
    queue_config: {batch_send_deadline: 10ms}
`);
    writers.prepare(config, {})();
    const name = (await registry.getSingleMetric('prometheus_remote_storage_shards')?.get())
      ?.values[0].labels['remote_name'];
    expect(name).toMatch(/^[0-9a-f]{6}$/);
    source.commit([[{ __name__: 'm' }, 1000, 1]]);
    await waitFor('the first batch', () => collector.samples.length === 1);
    // The same entry, read again: the queue and its counters go on.
    writers.prepare(
      remoteWrite(`  - url: ${collector.url}\n    queue_config: {batch_send_deadline: 10ms}\n`),
      {},
    )();
    source.commit([[{ __name__: 'm' }, 2000, 2]]);
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
    expect(source.listeners).toHaveLength(0);
    expect(await metric(registry, 'prometheus_remote_storage_shards')).toBeUndefined();
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
