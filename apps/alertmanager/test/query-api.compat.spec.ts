import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeWhen, type RunningProcess, waitFor } from '@redisx/testing';
import type { ServerProcess } from './support/server-process';
import { PROMETHEUS_BIN, startSideBySide } from './support/side-by-side-prometheus';

/**
 * Grafana's queries against the server and against Debian's Prometheus (when installed), both
 * scraping the same loopback exporter of the specification's metric families with the same
 * configuration: the answers (result type, series, values) of instant and range queries, series,
 * label names and values, and the status and error type of bad requests must be the same. The
 * exporter's values do not change, so the two scrapers' different phases do not matter.
 */
const describeWithPrometheus = describeWhen(
  !!PROMETHEUS_BIN,
  'query API comparison skipped: prometheus is not installed (apt-get install prometheus)',
);

const EXPOSITION = `# TYPE myapp_redis_cache_size gauge
myapp_redis_cache_size{cache="orders"} 1200
myapp_redis_cache_size{cache="sessions"} 300
# TYPE myapp_redis_commands_total counter
myapp_redis_commands_total{command="GET",status="success"} 1000
myapp_redis_commands_total{command="GET",status="error"} 10
myapp_redis_commands_total{command="SET",status="success"} 500
# TYPE node_memory_MemAvailable_bytes gauge
node_memory_MemAvailable_bytes 2.5e+09
# TYPE node_memory_MemTotal_bytes gauge
node_memory_MemTotal_bytes 8e+09
# TYPE http_request_duration_seconds histogram
http_request_duration_seconds_bucket{le="0.1"} 40
http_request_duration_seconds_bucket{le="1"} 90
http_request_duration_seconds_bucket{le="+Inf"} 100
http_request_duration_seconds_sum 30
http_request_duration_seconds_count 100
`;

type Answer = { status: string; data?: unknown; errorType?: string };

describeWithPrometheus('the query API side by side with Prometheus', () => {
  let dir: string;
  let exporter: Server;
  let ours: ServerProcess;
  let theirs: RunningProcess;
  let theirsUrl = '';
  let at = 0;

  beforeAll(async () => {
    exporter = createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' }).end(EXPOSITION),
    );
    await new Promise<void>((resolve) => exporter.listen(0, '127.0.0.1', resolve));
    const target = `127.0.0.1:${(exporter.address() as AddressInfo).port}`;
    dir = await mkdtemp(join(tmpdir(), 'am-query-compat-'));
    const config = `global:\n  scrape_interval: 1s\n  scrape_timeout: 500ms\nscrape_configs:\n  - job_name: app\n    static_configs:\n      - targets: ['${target}']\n        labels: {env: test}\n`;
    ({ ours, theirs, theirsUrl } = await startSideBySide(dir, config));
    // A few scrapes by both, then every query at one time both have samples for.
    await waitFor(
      'eight scrapes by both',
      async () => {
        for (const url of [ours.url, theirsUrl]) {
          const q = await get(url, '/api/v1/query?query=count_over_time(up[10s])');
          const result = (q.data as { result: { value: [number, string] }[] } | undefined)?.result;
          if (!result || result.length === 0 || Number(result[0].value[1]) < 8) return false;
        }
        return true;
      },
      20_000,
    );
    at = Math.floor(Date.now() / 1000) - 1;
  }, 30_000);

  afterAll(async () => {
    await theirs?.stop('SIGTERM');
    await ours?.stop();
    await new Promise((resolve) => exporter.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  async function get(base: string, path: string): Promise<Answer & { code: number }> {
    const res = await fetch(`${base}${path}`);
    return { code: res.status, ...((await res.json()) as Answer) };
  }

  /** The parts of an answer both must share: status, type and sorted results. */
  function comparable(answer: Answer & { code: number }) {
    if (answer.status !== 'success')
      return { code: answer.code, status: answer.status, errorType: answer.errorType };
    const data = answer.data as { resultType?: string; result?: unknown[] } | unknown[];
    if (Array.isArray(data))
      return { code: answer.code, data: [...data].map((d) => JSON.stringify(d)).sort() };
    const result = (data.result ?? []) as unknown[];
    const rows =
      Array.isArray(result) && typeof result[0] === 'object'
        ? result.map((r) => JSON.stringify(r)).sort()
        : result;
    return { code: answer.code, resultType: data.resultType, rows };
  }

  const instant = (query: string) =>
    `/api/v1/query?${new URLSearchParams({ query, time: String(at) })}`;
  const range = (query: string) =>
    `/api/v1/query_range?${new URLSearchParams({ query, start: String(at - 4), end: String(at), step: '2' })}`;

  it.each([
    ['up', () => instant('up')],
    ['a gauge', () => instant('myapp_redis_cache_size')],
    ['a sum by label', () => instant('sum by (status) (myapp_redis_commands_total)')],
    [
      'an error ratio',
      () =>
        instant(
          'sum(myapp_redis_commands_total{status="error"}) / sum(myapp_redis_commands_total)',
        ),
    ],
    [
      'a memory percentage',
      () => instant('(1 - node_memory_MemAvailable_bytes / node_memory_MemTotal_bytes) * 100'),
    ],
    [
      'a quantile over buckets',
      () => instant('histogram_quantile(0.95, sum by (le) (http_request_duration_seconds_bucket))'),
    ],
    ['a rate of an unchanging counter', () => instant('rate(myapp_redis_commands_total[10s])')],
    ['a topk', () => instant('topk(1, myapp_redis_cache_size)')],
    ['a scalar', () => instant('scalar(sum(myapp_redis_cache_size))')],
    ['a comparison filter', () => instant('myapp_redis_cache_size > 500')],
    ['a range query', () => range('myapp_redis_cache_size')],
    ['a range query of an expression', () => range('sum(myapp_redis_cache_size) * 2')],
    ['series', () => `/api/v1/series?match[]=myapp_redis_commands_total&start=${at - 5}&end=${at}`],
    ['label names', () => `/api/v1/labels?match[]={job="app"}&start=${at - 5}&end=${at}`],
    ['label values', () => `/api/v1/label/cache/values?start=${at - 5}&end=${at}`],
    [
      'metric names',
      () => `/api/v1/label/__name__/values?match[]={job="app"}&start=${at - 5}&end=${at}`,
    ],
    ['a parse error', () => instant('sum(')],
    ['a bad time', () => '/api/v1/query?query=up&time=yesterday'],
    ['a range without step', () => `/api/v1/query_range?query=up&start=${at - 4}&end=${at}`],
    ['series without match[]', () => '/api/v1/series'],
  ])('%s', async (_name, pathAt) => {
    // Built when the test runs: the query time is known only after the scrapes.
    const path = pathAt();
    const [a, b] = await Promise.all([get(ours.url, path), get(theirsUrl, path)]);
    expect(comparable(a)).toEqual(comparable(b));
    // Each successful query has something to compare.
    if (a.status === 'success')
      expect(JSON.stringify(comparable(a))).not.toMatch(/"(rows|data)":\[\]/);
  });
});
