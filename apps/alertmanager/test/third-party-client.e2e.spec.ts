import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PrometheusDriver, type QueryResult } from 'prometheus-query';
import { getFreePort, startProcess, waitFor, type RunningProcess } from '@redisx/testing';
import { startServerProcess, type ServerProcess } from './support/server-process';
import { PROMETHEUS_BIN } from './support/side-by-side-prometheus';

/**
 * Prometheus's HTTP API through a maintained third-party client, `prometheus-query` (the
 * library Node.js dashboards and bots use), rather than through requests of our own: the server
 * scrapes a loopback exporter and evaluates a rule, and every call the client makes for a
 * dashboard (queries, series, labels, targets, metadata, rules, alerts, status) is answered in a
 * shape it reads. Where Debian's Prometheus is installed, it scrapes the same exporter and the
 * client's readings of both servers are compared.
 */
const EXPOSITION = `# HELP myapp_redis_cache_size Entries in the cache.
# TYPE myapp_redis_cache_size gauge
myapp_redis_cache_size{cache="orders"} 1200
myapp_redis_cache_size{cache="sessions"} 300
# HELP myapp_redis_commands_total Commands completed.
# TYPE myapp_redis_commands_total counter
myapp_redis_commands_total{command="GET"} 1000
myapp_redis_commands_total{command="SET"} 500
`;

const RULES = `groups:
  - name: cache
    interval: 1s
    rules:
      - alert: CacheLarge
        expr: myapp_redis_cache_size > 1000
        labels: {severity: warning}
        annotations: {summary: 'cache {{ $labels.cache }} holds {{ $value }} entries'}
`;

/** What the client read, with what legitimately differs between two servers taken out. */
type Reading = unknown;

/** The client's calls, each with what the server's answer must show, and its comparable part. */
const CALLS: Array<
  [string, (c: PrometheusDriver, now: number) => Promise<unknown>, (r: never) => Reading]
> = [
  [
    'an instant query of a gauge',
    (c, now) => c.instantQuery('myapp_redis_cache_size', now),
    (r: QueryResult) => ({
      resultType: r.resultType,
      series: r.result
        .map((v) => [v.metric.name, v.metric.labels, v.value.value])
        .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
    }),
  ],
  [
    'an instant query of an aggregation',
    (c, now) => c.instantQuery('sum by (job) (myapp_redis_commands_total)', now),
    (r: QueryResult) => r.result.map((v) => [v.metric.labels, v.value.value]),
  ],
  [
    'a scalar',
    (c, now) => c.instantQuery('scalar(vector(2)) * 3', now),
    // The client hands a scalar over as the API's pair: time in seconds, value as a string.
    (r: QueryResult) => [r.resultType, Number((r.result as unknown as [number, string])[1])],
  ],
  [
    'a range query',
    (c, now) => c.rangeQuery('myapp_redis_cache_size{cache="orders"}', now - 4000, now, 1),
    (r: QueryResult) => ({
      resultType: r.resultType,
      labels: r.result.map((v) => v.metric.labels),
      values: [
        ...new Set(r.result.flatMap((v) => v.values.map((s: { value: number }) => s.value))),
      ],
    }),
  ],
  [
    'series',
    (c, now) => c.series('myapp_redis_cache_size', now - 60_000, now),
    (r: Array<{ name: string; labels: Record<string, string> }>) =>
      r
        .map((m) => [m.name, m.labels])
        .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
  ],
  [
    'label names',
    (c, now) => c.labelNames('myapp_redis_cache_size', now - 60_000, now),
    (r: string[]) => r,
  ],
  ['label values', (c) => c.labelValues('cache'), (r: string[]) => r],
  [
    'targets',
    (c) => c.targets(),
    (r: { activeTargets: Array<{ labels: object; health: string; scrapePool: string }> }) =>
      r.activeTargets.map((t) => [t.scrapePool, t.health, t.labels]),
  ],
  ['metadata', (c) => c.metadata('myapp_redis_cache_size'), (r: Record<string, unknown>) => r],
  [
    'target metadata',
    (c) => c.targetsMetadata('{job="app"}', 'myapp_redis_commands_total'),
    (r: Array<{ type: string; help: string; target: object }>) =>
      r.map((m) => [m.type, m.help, m.target]),
  ],
  [
    'rules',
    (c) => c.rules(),
    (r: Array<{ name: string; rules: Array<{ name: string; query: string; health: string }> }>) =>
      r.map((g) => [g.name, g.rules.map((rule) => [rule.name, rule.query, rule.health])]),
  ],
  [
    'alerts',
    (c) => c.alerts(),
    (r: Array<{ labels: object; annotations: object; state: string }>) =>
      r.map((a) => [a.labels, a.annotations, a.state]),
  ],
  ['the build', (c) => c.statusBuildinfo(), (r: object) => Object.keys(r).sort()],
  [
    'the TSDB status',
    (c) => c.statusTSDB(),
    (r: { headStats: object; seriesCountByMetricName: Array<{ name: string }> }) => [
      Object.keys(r.headStats).sort(),
      r.seriesCountByMetricName.map((e) => e.name).sort(),
    ],
  ],
];

/** What each call must read on this server, whatever another answers. */
const EXPECTED: Record<string, Reading> = {
  'an instant query of a gauge': {
    resultType: 'vector',
    series: [
      [
        'myapp_redis_cache_size',
        { cache: 'orders', env: 'test', instance: '$TARGET', job: 'app' },
        1200,
      ],
      [
        'myapp_redis_cache_size',
        { cache: 'sessions', env: 'test', instance: '$TARGET', job: 'app' },
        300,
      ],
    ],
  },
  'an instant query of an aggregation': [[{ job: 'app' }, 1500]],
  'a scalar': ['scalar', 6],
  'a range query': {
    resultType: 'matrix',
    labels: [{ cache: 'orders', env: 'test', instance: '$TARGET', job: 'app' }],
    values: [1200],
  },
  series: [
    ['myapp_redis_cache_size', { cache: 'orders', env: 'test', instance: '$TARGET', job: 'app' }],
    ['myapp_redis_cache_size', { cache: 'sessions', env: 'test', instance: '$TARGET', job: 'app' }],
  ],
  'label names': ['__name__', 'cache', 'env', 'instance', 'job'],
  'label values': ['orders', 'sessions'],
  targets: [['app', 'up', { env: 'test', instance: '$TARGET', job: 'app' }]],
  metadata: {
    myapp_redis_cache_size: [{ type: 'gauge', help: 'Entries in the cache.', unit: '' }],
  },
  'target metadata': [
    ['counter', 'Commands completed.', { env: 'test', instance: '$TARGET', job: 'app' }],
  ],
  rules: [['cache', [['CacheLarge', 'myapp_redis_cache_size > 1000', 'ok']]]],
  alerts: [
    [
      {
        alertname: 'CacheLarge',
        cache: 'orders',
        env: 'test',
        instance: '$TARGET',
        job: 'app',
        severity: 'warning',
      },
      { summary: 'cache orders holds 1200 entries' },
      'firing',
    ],
  ],
  'the build': ['branch', 'buildDate', 'buildUser', 'goVersion', 'revision', 'version'],
  'the TSDB status': [
    ['chunkCount', 'maxTime', 'minTime', 'numLabelPairs', 'numSeries'],
    expect.arrayContaining(['myapp_redis_cache_size', 'myapp_redis_commands_total', 'up']),
  ],
};

describe('a third-party client (prometheus-query) reading the Prometheus API', () => {
  let dir: string;
  let exporter: Server;
  let target = '';
  let ours: ServerProcess;
  let theirs: RunningProcess | undefined;
  let oursClient: PrometheusDriver;
  let theirsClient: PrometheusDriver | undefined;

  beforeAll(async () => {
    exporter = createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' }).end(EXPOSITION),
    );
    await new Promise<void>((resolve) => exporter.listen(0, '127.0.0.1', resolve));
    target = `127.0.0.1:${(exporter.address() as AddressInfo).port}`;
    dir = await mkdtemp(join(tmpdir(), 'am-third-party-client-'));
    await writeFile(join(dir, 'cache.rules.yml'), RULES);
    await writeFile(
      join(dir, 'prometheus.yml'),
      `global:\n  scrape_interval: 1s\n  scrape_timeout: 500ms\n  evaluation_interval: 1s\nrule_files: [cache.rules.yml]\nscrape_configs:\n  - job_name: app\n    static_configs:\n      - targets: ['${target}']\n        labels: {env: test}\n`,
    );
    await writeFile(join(dir, 'am.yml'), 'route:\n  receiver: none\nreceivers:\n  - name: none\n');
    ours = await startServerProcess(join(dir, 'am.yml'), [
      `--rules.config.file=${join(dir, 'prometheus.yml')}`,
    ]);
    oursClient = new PrometheusDriver({ endpoint: ours.url, baseURL: '/api/v1' });
    if (PROMETHEUS_BIN) {
      const port = await getFreePort();
      theirs = startProcess(PROMETHEUS_BIN, [
        `--config.file=${join(dir, 'prometheus.yml')}`,
        `--storage.tsdb.path=${join(dir, 'tsdb')}`,
        `--web.listen-address=127.0.0.1:${port}`,
      ]);
      theirsClient = new PrometheusDriver({ endpoint: `http://127.0.0.1:${port}` });
    } else {
      process.stderr.write(
        'third-party client: comparison with Prometheus skipped, prometheus is not installed (apt-get install prometheus)\n',
      );
    }
    // Both have scraped a few times and fired the rule.
    for (const client of [oursClient, theirsClient]) {
      if (client === undefined) continue;
      await waitFor(
        'the rule to fire and five scrapes',
        async () => {
          const alerts = await client.alerts().catch(() => []);
          const up = await client.instantQuery('count_over_time(up[10s])').catch(() => undefined);
          return alerts.some((a) => a.state === 'firing') && (up?.result[0]?.value.value ?? 0) >= 5;
        },
        30_000,
      );
    }
  }, 60_000);

  afterAll(async () => {
    await ours?.stop();
    await theirs?.stop();
    await new Promise((resolve) => exporter.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  it.each(CALLS)('%s', async (name, call, comparable) => {
    const now = Date.now();
    const read = (comparable as (r: unknown) => Reading)(await call(oursClient, now));
    expect(read).toEqual(withTargetKeepingMatchers(EXPECTED[name]));
    if (theirsClient !== undefined) {
      const theirsRead = (comparable as (r: unknown) => Reading)(await call(theirsClient, now));
      expect(read).toEqual(theirsRead);
    }
  });

  it('reads a bad query as the error Prometheus gives', async () => {
    const failure = (client: PrometheusDriver) =>
      client.instantQuery('sum(').then(
        () => undefined,
        (error: { errorType: string; httpStatus: number; prometheus: object }) => error,
      );
    const got = await failure(oursClient);
    expect(got).toMatchObject({
      errorType: 'http_error',
      httpStatus: 400,
      prometheus: { status: 'error', errorType: 'bad_data' },
    });
    if (theirsClient !== undefined) {
      const theirsGot = await failure(theirsClient);
      expect(got?.prometheus).toEqual(theirsGot?.prometheus);
    }
  });

  /** `$TARGET` replaced inside plain data; Jest's asymmetric matchers kept as they are. */
  function withTargetKeepingMatchers(expected: Reading): Reading {
    if (Array.isArray(expected)) return expected.map(withTargetKeepingMatchers);
    if (typeof expected === 'string') return expected.replaceAll('$TARGET', target);
    if (typeof expected !== 'object' || expected === null) return expected;
    if ('asymmetricMatch' in expected) return expected;
    return Object.fromEntries(
      Object.entries(expected).map(([k, v]) => [k, withTargetKeepingMatchers(v)]),
    );
  }
});
