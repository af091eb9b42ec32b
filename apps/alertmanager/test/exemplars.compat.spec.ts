import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeWhen, type RunningProcess, waitFor } from '@redisx/testing';
import type { ServerProcess } from './support/server-process';
import { PROMETHEUS_BIN, startSideBySide } from './support/side-by-side-prometheus';

/**
 * Exemplars scraped from the same loopback OpenMetrics exporter by the server and by Debian's
 * Prometheus with `--enable-feature=exemplar-storage` (when installed), in a ring of 8: the
 * answers of `/api/v1/query_exemplars` must be the same byte for byte (bar the time of the one
 * exemplar without its own, which is each scraper's scrape time), after duplicates, an
 * out-of-order and a too-long exemplar, the ring wrapping, and a reload that shrinks it; and bad
 * parameters must be refused alike.
 */
const describeWithPrometheus = describeWhen(
  !!PROMETHEUS_BIN,
  'exemplar comparison skipped: prometheus is not installed (apt-get install prometheus)',
);

const CONTENT_TYPE = 'application/openmetrics-text; version=1.0.0; charset=utf-8';

const FIRST = `# TYPE requests counter
requests_total{code="200"} 10 # {trace_id="a1"} 0.5 1600000000.120
requests_total{code="500"} 2 # {span_id="s",trace_id="b1"} 1e-7 1600000000.5
requests_total{code="302"} 1 # {trace_id="x\\"y",empty=""} 1 1600000000
requests_total{code="404"} 1
# TYPE too_long counter
too_long_total 1 # {t="${'x'.repeat(128)}"} 1 1600000000
# TYPE latency histogram
latency_bucket{le="0.1"} 4 # {trace_id="c1"} 0.05 1600000001
latency_bucket{le="1"} 9 # {trace_id="now-1"} 0.7
latency_bucket{le="+Inf"} 10 # {path="&<>",trace_id="${'y'.repeat(100)}"} 3 1600000002
latency_sum 5
latency_count 10
# EOF
`;

/** The same series later: one newer exemplar, one older, two repeated, three new series. */
const SECOND = `# TYPE requests counter
requests_total{code="200"} 11 # {trace_id="a2"} 0.25 1600000003
requests_total{code="500"} 3 # {trace_id="b0"} 1 1599999999
# TYPE latency histogram
latency_bucket{le="0.1"} 4 # {trace_id="c1"} 0.05 1600000001
latency_bucket{le="1"} 9 # {trace_id="now-1"} 0.7
latency_bucket{le="+Inf"} 10
latency_sum 5
latency_count 10
# TYPE jobs counter
jobs_total{kind="a"} 1 # {trace_id="e1"} 1 1600000004
jobs_total{kind="b"} 1 # {trace_id="e2"} 2 1600000005.001
jobs_total{kind="c"} 1 # {trace_id="e3"} 1e+21 1600000006
# EOF
`;

/**
 * The second exposition as each scraper reads it again: without the older exemplar. Once the ring
 * has wrapped, the series' newer exemplar is gone from it, and a second read of the older one
 * would be taken (by both servers alike): whether it is depended on how many scrapes the test's
 * waits let happen.
 */
const SECOND_AGAIN = SECOND.replace(' # {trace_id="b0"} 1 1599999999', '');

const config = (target: string, maxExemplars: number) =>
  `global:\n  scrape_interval: 1s\n  scrape_timeout: 500ms\nscrape_configs:\n  - job_name: app\n    static_configs:\n      - targets: ['${target}']\nstorage:\n  exemplars:\n    max_exemplars: ${maxExemplars}\n`;

interface Answer {
  code: number;
  /** The body, the scrape time of the exemplar that has none of its own masked. */
  body: string;
}

describeWithPrometheus('exemplars side by side with Prometheus', () => {
  let dir: string;
  let exporter: Server;
  let body = FIRST;
  let target = '';
  let ours: ServerProcess;
  let theirs: RunningProcess;
  let theirsUrl = '';

  beforeAll(async () => {
    // Each scraper (told apart by its User-Agent) reads the second exposition whole once.
    const readSecond = new Set<string>();
    exporter = createServer((req, res) => {
      const scraper = req.headers['user-agent'] ?? '';
      const served = body === SECOND && readSecond.has(scraper) ? SECOND_AGAIN : body;
      if (body === SECOND) readSecond.add(scraper);
      res.writeHead(200, { 'content-type': CONTENT_TYPE }).end(served);
    });
    await new Promise<void>((resolve) => exporter.listen(0, '127.0.0.1', resolve));
    target = `127.0.0.1:${(exporter.address() as AddressInfo).port}`;
    dir = await mkdtemp(join(tmpdir(), 'am-exemplars-compat-'));
    ({ ours, theirs, theirsUrl } = await startSideBySide(dir, config(target, 8), [
      '--enable-feature=exemplar-storage',
      '--web.enable-lifecycle',
    ]));
    await bothShow('the first exposition', 'c1');
  }, 30_000);

  afterAll(async () => {
    await theirs?.stop('SIGTERM');
    await ours?.stop();
    await new Promise((resolve) => exporter.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  async function send(base: string, path: string, init?: RequestInit): Promise<Answer> {
    const res = await fetch(`${base}${path}`, init);
    const text = await res.text();
    const body = text.replace(
      /("trace_id":"now-1"\},"value":"0.7","timestamp":)[\d.]+/g,
      '$1<scrape>',
    );
    return { code: res.status, body };
  }

  const everything = `/api/v1/query_exemplars?${new URLSearchParams({ query: '{__name__=~".+"}' })}`;

  /** Waits until both answer alike for every exemplar, with `trace` among them. */
  async function bothShow(what: string, trace: string): Promise<void> {
    await waitFor(
      `${what} in both`,
      async () => {
        const [a, b] = await Promise.all([send(ours.url, everything), send(theirsUrl, everything)]);
        return a.body.includes(`"${trace}"`) && a.body === b.body;
      },
      20_000,
      200,
    );
  }

  async function exemplarMetrics(base: string): Promise<string[]> {
    const text = await (await fetch(`${base}/metrics`)).text();
    return text
      .split('\n')
      .filter(
        (line) =>
          line.startsWith('prometheus_tsdb_exemplar_') &&
          !line.includes('last_exemplars_timestamp'),
      )
      .sort();
  }

  const query = (params: Record<string, string>) =>
    `/api/v1/query_exemplars?${new URLSearchParams(params)}`;
  /** Each request with a part of the answer it must have (empty: a `204` without body). */
  const cases: [string, string, () => [string, RequestInit?]][] = [
    ['a metric name', '"a1"', () => [query({ query: 'requests_total' })]],
    ['a label matcher', '"c1"', () => [query({ query: 'latency_bucket{le!="1"}' })]],
    [
      'selectors within an expression and a range',
      '"b1"',
      () => [
        query({
          query: 'sum(rate(requests_total[5m])) / on() latency_bucket{le="0.1"}',
          start: '1600000000.12',
          end: '1600000001',
        }),
      ],
    ],
    [
      'a range between exemplars',
      '"b1"',
      () => [query({ query: 'requests_total', start: '1600000000.121', end: '1600000000.5' })],
    ],
    [
      'an RFC 3339 range',
      '"path":"\\u0026\\u003c\\u003e"',
      () => [
        query({
          query: '{__name__=~"latency.*"}',
          start: '2020-09-13T12:26:41Z',
          end: '2020-09-13T12:26:42Z',
        }),
      ],
    ],
    ['a series without exemplars', '[]', () => [query({ query: 'requests_total{code="404"}' })]],
    ['a metric not scraped', '[]', () => [query({ query: 'nothing_total' })]],
    ['a query without selectors', '', () => [query({ query: 'vector(1)' })]],
    [
      'a POSTed form',
      '"c1"',
      () => [
        '/api/v1/query_exemplars?start=1',
        {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ query: 'latency_bucket', start: '1600000001' }).toString(),
        },
      ],
    ],
    [
      'a bad start',
      'Invalid time value',
      () => [query({ query: 'requests_total', start: 'yesterday' })],
    ],
    [
      'a bad end',
      'Invalid time value',
      () => [query({ query: 'requests_total', end: '1600000000x' })],
    ],
    [
      'an end before the start',
      'must not be before',
      () => [query({ query: 'requests_total', start: '20', end: '10' })],
    ],
    ['no query', 'no expression found', () => ['/api/v1/query_exemplars']],
    ['a parse error', 'parse error', () => [query({ query: 'requests_total{' })]],
    ['a selector of empty matchers', 'non-empty matcher', () => [query({ query: '{code=~".*"}' })]],
  ];

  it.each(cases)('answers %s alike', async (_name, part, request) => {
    const [path, init] = request();
    const [a, b] = await Promise.all([send(ours.url, path, init), send(theirsUrl, path, init)]);
    expect(a).toEqual(b);
    if (part === '') expect(a).toEqual({ code: 204, body: '' });
    else expect(a.body).toContain(part);
  });

  it('answers alike once the ring wraps, and counts alike', async () => {
    body = SECOND;
    await bothShow('the second exposition', 'e3');
    const [a, b] = await Promise.all([send(ours.url, everything), send(theirsUrl, everything)]);
    expect(a).toEqual(b);
    // The two oldest went; the out-of-order and the repeated ones were not taken.
    expect(a.body).not.toContain('"a1"');
    expect(a.body).not.toContain('"b0"');
    expect(await exemplarMetrics(ours.url)).toEqual(await exemplarMetrics(theirsUrl));
    expect(await exemplarMetrics(ours.url)).toContain(
      'prometheus_tsdb_exemplar_exemplars_appended_total 10',
    );
  }, 30_000);

  it('keeps the newest exemplars alike when a reload shrinks the ring', async () => {
    await writeFile(join(dir, 'prometheus.yml'), config(target, 3));
    const reloads = await Promise.all(
      [ours.url, theirsUrl].map((base) => fetch(`${base}/-/reload`, { method: 'POST' })),
    );
    expect(reloads.map((r) => r.status)).toEqual([200, 200]);
    await waitFor('both rings resized', async () => {
      const metrics = await Promise.all([exemplarMetrics(ours.url), exemplarMetrics(theirsUrl)]);
      return metrics.every((lines) => lines.includes('prometheus_tsdb_exemplar_max_exemplars 3'));
    });
    const [a, b] = await Promise.all([send(ours.url, everything), send(theirsUrl, everything)]);
    expect(a).toEqual(b);
    expect((a.body.match(/"trace_id"/g) ?? []).length).toBe(3);
    expect(await exemplarMetrics(ours.url)).toEqual(await exemplarMetrics(theirsUrl));
  }, 30_000);
});
