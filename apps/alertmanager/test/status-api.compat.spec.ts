import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeWhen, type RunningProcess, waitFor } from '@redisx/testing';
import type { ServerProcess } from './support/server-process';
import { PROMETHEUS_BIN, startSideBySide } from './support/side-by-side-prometheus';

/**
 * `/api/v1/status/{config,flags,runtimeinfo,tsdb}` of the server and of Debian's Prometheus
 * (when installed), both on the same Prometheus-style file and scraping the same loopback
 * exporter: the answers must have the same shape, the configuration must print the same (its
 * password as `<secret>`), and once both have scraped the same series the cardinality lists must
 * agree.
 */
const describeWithPrometheus = describeWhen(
  !!PROMETHEUS_BIN,
  'status API comparison skipped: prometheus is not installed (apt-get install prometheus)',
);

const PASSWORD = 'hunter2-status-secret';

// Few enough metric and label names that those lists hold every one of them.
const EXPOSITION = `# TYPE myapp_cache_size gauge
myapp_cache_size{cache="orders"} 1200
myapp_cache_size{cache="sessions"} 300
# TYPE myapp_commands_total counter
myapp_commands_total{command="GET",status="success"} 1000
myapp_commands_total{command="GET",status="error"} 10
myapp_commands_total{command="SET",status="success"} 500
# TYPE ignored_metric gauge
ignored_metric 1
`;

/** Two metric families and the five series every scrape adds. */
const SERIES = 2 + 3 + 5;

type Answer = { status: string; data: Record<string, unknown> };
type Stat = { name: string; value: number };

/** An answer's keys and the types of its values, lists by their first item. */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.length === 0 ? [] : [shape(value[0])];
  if (value === null || typeof value !== 'object') return typeof value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shape(v)]));
}

/**
 * Two top-10 lists agree when their counts are the same and so are the entries above the
 * smallest count: Prometheus picks among entries tied at the cut in its map's random order.
 */
function expectSameTopList(ours: Stat[], theirs: Stat[]): void {
  expect(ours.map((s) => s.value)).toEqual(theirs.map((s) => s.value));
  const last = theirs.at(-1)?.value ?? 0;
  const above = (list: Stat[]) =>
    list
      .filter((s) => s.value > last)
      .map((s) => `${s.name} ${s.value}`)
      .sort();
  expect(above(ours)).toEqual(above(theirs));
  if (ours.length < 10) expect([...ours].sort(byName)).toEqual([...theirs].sort(byName));
}

const byName = (a: Stat, b: Stat) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

describeWithPrometheus('the status API side by side with Prometheus', () => {
  let dir: string;
  let exporter: Server;
  let ours: ServerProcess;
  let theirs: RunningProcess;
  let theirsUrl = '';
  let startedAt = 0;
  const authorizations = new Set<string>();

  beforeAll(async () => {
    startedAt = Date.now();
    exporter = createServer((req, res) => {
      authorizations.add(req.headers.authorization ?? '');
      res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' }).end(EXPOSITION);
    });
    await new Promise<void>((resolve) => exporter.listen(0, '127.0.0.1', resolve));
    const target = `127.0.0.1:${(exporter.address() as AddressInfo).port}`;
    dir = await mkdtemp(join(tmpdir(), 'am-status-compat-'));
    const config = [
      'global:',
      '  scrape_interval: 1s',
      '  scrape_timeout: 500ms',
      '  evaluation_interval: 30s',
      '  external_labels: {site: lab}',
      'scrape_configs:',
      '  - job_name: app',
      '    honor_labels: true',
      '    basic_auth:',
      '      username: scraper',
      `      password: ${PASSWORD}`,
      '    relabel_configs:',
      '      - target_label: team',
      '        replacement: core',
      '      - source_labels: [__address__, __scheme__]',
      "        regex: '127\\.0\\.0\\.1:(\\d+);http'",
      '        target_label: port',
      "        replacement: 'p$1'",
      '    metric_relabel_configs:',
      '      - source_labels: [__name__]',
      "        regex: 'ignored_.*'",
      '        action: drop',
      '    static_configs:',
      `      - targets: ['${target}']`,
      '        labels: {env: test}',
      '',
    ].join('\n');
    ({ ours, theirs, theirsUrl } = await startSideBySide(dir, config));
    // Asked through the query API: a first `status/tsdb` would fix Prometheus's cardinality
    // lists for 30 s.
    await waitFor(
      'both to have scraped every series',
      async () => {
        for (const url of [ours.url, theirsUrl]) {
          const res = await fetch(`${url}/api/v1/query?query=count({job="app"})`);
          const body = (await res.json()) as { data?: { result: { value: [number, string] }[] } };
          if (Number(body.data?.result[0]?.value[1] ?? 0) < SERIES) return false;
        }
        return true;
      },
      20_000,
    );
  }, 30_000);

  afterAll(async () => {
    await theirs?.stop('SIGTERM');
    await ours?.stop();
    await new Promise((resolve) => exporter?.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  async function get(base: string, endpoint: string): Promise<Answer> {
    const res = await fetch(`${base}/api/v1/status/${endpoint}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    return (await res.json()) as Answer;
  }

  const both = (endpoint: string) =>
    Promise.all([get(ours.url, endpoint), get(theirsUrl, endpoint)]);

  it.each(['config', 'runtimeinfo', 'tsdb'])(
    'answers status/%s in the same shape',
    async (endpoint) => {
      const [a, b] = await both(endpoint);
      expect(a.status).toBe('success');
      expect(shape(a)).toEqual(shape(b));
    },
  );

  it('answers status/flags as a map of flag names to strings, sharing the flags both have', async () => {
    const [a, b] = await both('flags');
    for (const answer of [a, b]) {
      expect(Object.values(answer.data).every((v) => typeof v === 'string')).toBe(true);
    }
    // Flags of the same name and meaning, given the same values (their defaults).
    for (const name of [
      'query.lookback-delta',
      'query.timeout',
      'query.max-samples',
      'log.level',
    ]) {
      expect([name, a.data[name]]).toEqual([name, b.data[name]]);
    }
    for (const name of ['storage.tsdb.retention.time', 'storage.tsdb.retention.size']) {
      expect([name, a.data[name]]).toEqual([name, b.data[name]]);
    }
  });

  it('prints the configuration as Prometheus does, the password as <secret>', async () => {
    const [a, b] = await both('config');
    expect(a.data['yaml']).toBe(b.data['yaml']);
    expect(a.data['yaml']).toContain('    password: <secret>\n');
    expect(JSON.stringify(a)).not.toContain(PASSWORD);
    // Both did send the password to the exporter.
    const basic = `Basic ${Buffer.from(`scraper:${PASSWORD}`).toString('base64')}`;
    expect([...authorizations]).toEqual([basic]);
  });

  it('words the retention and the reload as Prometheus does', async () => {
    const [a, b] = await both('runtimeinfo');
    for (const key of ['storageRetention', 'reloadConfigSuccess', 'corruptionCount']) {
      expect([key, a.data[key]]).toEqual([key, b.data[key]]);
    }
  });

  it('counts the same series, labels and pairs once both have scraped them', async () => {
    const [a, b] = await both('tsdb');
    const [headA, headB] = [a.data['headStats'], b.data['headStats']] as Record<string, number>[];
    expect(headA['numSeries']).toBe(SERIES);
    expect(headB['numSeries']).toBe(SERIES);
    expect(headA['numLabelPairs']).toBe(headB['numLabelPairs']);
    // One chunk a series here; Prometheus's may have been cut at a block boundary.
    expect(headA['chunkCount']).toBe(SERIES);
    expect(headB['chunkCount']).toBeGreaterThanOrEqual(SERIES);
    for (const head of [headA, headB]) {
      expect(head['minTime']).toBeGreaterThanOrEqual(startedAt);
      expect(head['maxTime']).toBeGreaterThanOrEqual(head['minTime']);
      expect(head['maxTime']).toBeLessThanOrEqual(Date.now());
    }
    for (const list of [
      'seriesCountByMetricName',
      'labelValueCountByLabelName',
      'memoryInBytesByLabelName',
      'seriesCountByLabelValuePair',
    ]) {
      expectSameTopList(a.data[list] as Stat[], b.data[list] as Stat[]);
    }
  });
});
