import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeWhen, type RunningProcess, waitFor } from '@redisx/testing';
import type { ServerProcess } from './support/server-process';
import { PROMETHEUS_BIN, startSideBySide } from './support/side-by-side-prometheus';

/**
 * The metric metadata API (what Grafana's metric browser and type hints read) against Debian's
 * Prometheus 2.42 (when installed), both scraping the same loopback exporter with the same
 * configuration: a text-format target (help escapes, blanks, a histogram, a summary, an untyped
 * metric, help without type, metadata without samples), the same family with another help on two
 * more targets (de-duplication across targets), and an OpenMetrics target (units, its own types
 * and escapes). `/api/v1/metadata` and `/api/v1/targets/metadata` must answer alike for each
 * parameter combination, bad ones included (status code, error type and message).
 *
 * 2.42 walks targets and families in Go's map order, so lists are compared sorted, and where a
 * `limit` makes Go's order choose what is kept, the answers are held to their shape instead: the
 * count, and each part as it is in the unlimited answer.
 */
const describeWithPrometheus = describeWhen(
  !!PROMETHEUS_BIN,
  'metadata API comparison skipped: prometheus is not installed (apt-get install prometheus)',
);

const TEXT = String.raw`# HELP esc_total Escapes: backslash \\ newline \n quote \" tab \t end
# TYPE esc_total counter
esc_total 1
# HELP spaced   two leading blanks and trailing  
# TYPE spaced gauge
spaced 1
# TYPE untyped_metric untyped
untyped_metric 3
# HELP help_only Help without a type.
help_only 4
no_metadata 5
# TYPE http_duration_seconds histogram
# HELP http_duration_seconds Request latency.
http_duration_seconds_bucket{le="0.1"} 1
http_duration_seconds_bucket{le="+Inf"} 2
http_duration_seconds_sum 0.3
http_duration_seconds_count 2
# HELP rpc_seconds RPC latency.
# TYPE rpc_seconds summary
rpc_seconds{quantile="0.5"} 0.1
rpc_seconds_sum 1
rpc_seconds_count 10
# HELP no_samples Metadata without samples.
# TYPE no_samples gauge
# HELP twice first
# HELP twice second
# TYPE twice gauge
twice 1
# UNIT text_seconds seconds
# TYPE text_seconds gauge
text_seconds 1
	# HELP indented An indented line.
indented 1
# HELP empty_help
empty_help 1
`;

/** The same histogram family with another help, and a family of its own. */
const OTHER = String.raw`# TYPE http_duration_seconds histogram
# HELP http_duration_seconds Latency of requests.
http_duration_seconds_bucket{le="+Inf"} 2
http_duration_seconds_sum 0.3
http_duration_seconds_count 2
# HELP other_total Another counter.
# TYPE other_total counter
other_total 1
`;

const OPENMETRICS = String.raw`# HELP om_requests Requests \" quoted \\ backslash \n newline.
# TYPE om_requests counter
om_requests_total 1
# TYPE om_latency_seconds histogram
# UNIT om_latency_seconds seconds
# HELP om_latency_seconds Latency.
om_latency_seconds_bucket{le="1"} 1
om_latency_seconds_bucket{le="+Inf"} 1
om_latency_seconds_sum 0.5
om_latency_seconds_count 1
# TYPE om_build info
om_build_info{version="1"} 1
# TYPE om_state stateset
om_state{om_state="a"} 1
# TYPE om_unknown unknown
# HELP om_unknown 
om_unknown 1
# TYPE om_queue gaugehistogram
om_queue_bucket{le="+Inf"} 1
om_queue_gcount 1
om_queue_gsum 1
# HELP om_size_bytes Size.
# UNIT om_size_bytes bytes
# TYPE om_size_bytes gauge
om_size_bytes 2
# EOF
`;

type Answer = { code: number; status: string; data?: unknown; errorType?: string; error?: string };
type TargetEntry = { target: Record<string, string>; metric?: string };

describeWithPrometheus('the metadata API side by side with Prometheus', () => {
  let dir: string;
  let exporter: Server;
  let ours: ServerProcess;
  let theirs: RunningProcess;
  let theirsUrl = '';
  let port = 0;
  let text = TEXT;

  beforeAll(async () => {
    exporter = createServer((req, res) => {
      if (req.url === '/openmetrics') {
        res
          .writeHead(200, {
            'content-type': 'application/openmetrics-text; version=1.0.0; charset=utf-8',
          })
          .end(OPENMETRICS);
        return;
      }
      const body = req.url === '/other' ? OTHER : text;
      res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' }).end(body);
    });
    await new Promise<void>((resolve) => exporter.listen(0, '127.0.0.1', resolve));
    port = (exporter.address() as AddressInfo).port;
    dir = await mkdtemp(join(tmpdir(), 'am-metadata-compat-'));
    const config = [
      'global:',
      '  scrape_interval: 1s',
      '  scrape_timeout: 500ms',
      'scrape_configs:',
      '  - job_name: app',
      '    static_configs:',
      `      - targets: ['127.0.0.1:${port}']`,
      '        labels: {env: test}',
      '  - job_name: other',
      '    metrics_path: /other',
      '    static_configs:',
      `      - targets: ['127.0.0.1:${port}', 'localhost:${port}']`,
      '  - job_name: om',
      '    metrics_path: /openmetrics',
      '    static_configs:',
      `      - targets: ['127.0.0.1:${port}']`,
      '',
    ].join('\n');
    ({ ours, theirs, theirsUrl } = await startSideBySide(dir, config));
    // Until both have scraped every target.
    await waitFor(
      'every target scraped by both',
      async () => {
        for (const url of [ours.url, theirsUrl]) {
          const answer = await get(url, '/api/v1/targets/metadata?metric=http_duration_seconds');
          const om = await get(url, '/api/v1/metadata?metric=om_size_bytes');
          if ((answer.data as unknown[] | undefined)?.length !== 3) return false;
          if (Object.keys((om.data as object | undefined) ?? {}).length !== 1) return false;
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
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function get(base: string, path: string): Promise<Answer> {
    const res = await fetch(`${base}${path}`);
    return { code: res.status, ...((await res.json()) as Omit<Answer, 'code'>) };
  }

  async function both(path: string): Promise<[Answer, Answer]> {
    return Promise.all([get(ours.url, path), get(theirsUrl, path)]);
  }

  /** An answer with its lists in one order: entries of a metric, or of the targets. */
  function sorted(answer: Answer): Answer {
    if (answer.status !== 'success') return answer;
    const byJson = (list: unknown[]) => list.map((e) => JSON.stringify(e)).sort();
    if (Array.isArray(answer.data)) return { ...answer, data: byJson(answer.data) };
    const data = answer.data as Record<string, unknown[]>;
    return {
      ...answer,
      data: Object.fromEntries(Object.entries(data).map(([name, list]) => [name, byJson(list)])),
    };
  }

  const selector = (text: string) => encodeURIComponent(text);

  describe('/api/v1/targets/metadata', () => {
    it.each<[string, () => string]>([
      ['every target and family', () => ''],
      ['one family on several targets', () => 'metric=http_duration_seconds'],
      ['help escapes in the text format', () => 'metric=esc_total'],
      ['help blanks kept', () => 'metric=spaced'],
      ['an untyped metric', () => 'metric=untyped_metric'],
      ['help without a type', () => 'metric=help_only'],
      ['a metric without metadata', () => 'metric=no_metadata'],
      ['metadata without samples', () => 'metric=no_samples'],
      ['the last of two helps', () => 'metric=twice'],
      ['UNIT in the text format', () => 'metric=text_seconds'],
      ['an empty help', () => 'metric=empty_help'],
      ['a summary', () => 'metric=rpc_seconds'],
      ['an OpenMetrics counter by its family name', () => 'metric=om_requests'],
      ['an OpenMetrics series name', () => 'metric=om_requests_total'],
      ['an OpenMetrics unit', () => 'metric=om_latency_seconds'],
      ['an unknown metric', () => 'metric=nope'],
      ['an empty metric', () => 'metric='],
      ['a job', () => `match_target=${selector('{job="other"}')}`],
      [
        'regex and negative matchers',
        () =>
          `match_target=${selector(`{job=~"app|other",instance!="localhost:${port}"}`)}&metric=http_duration_seconds`,
      ],
      [
        'a label some targets lack',
        () => `match_target=${selector('{env=""}')}&metric=http_duration_seconds`,
      ],
      ['braces alone', () => `match_target=${selector('{}')}&metric=http_duration_seconds`],
      ['a metric name', () => `match_target=up&metric=http_duration_seconds`],
      ['an internal label', () => `match_target=${selector('{__scheme__="http"}')}`],
      ['limit 0', () => 'limit=0'],
      ['a negative limit', () => 'limit=-1'],
      ['a huge limit', () => 'limit=9223372036854775807'],
      ['a limit with a plus sign', () => 'limit=%2B100'],
      ['limit and match_target', () => `limit=0&match_target=${selector('{job="app"}')}`],
    ])('%s', async (name, query) => {
      const [a, b] = await both(`/api/v1/targets/metadata?${query()}`);
      expect(sorted(a)).toEqual(sorted(b));
      // Each comparison has something to compare, but where nothing is the answer.
      const empty =
        /unknown metric|without metadata|series name|metric name|internal|limit 0|limit and/;
      expect((b.data as unknown[]).length === 0).toBe(empty.test(name));
    });

    it.each<[string, () => string]>([
      ['a word for a limit', () => 'limit=abc'],
      ['a fraction', () => 'limit=1.5'],
      ['a blank before the limit', () => 'limit=+1'],
      ['a limit past Go ints', () => 'limit=9223372036854775808'],
      ['limit before match_target', () => `limit=x&match_target=${selector('{')}`],
      ['unclosed braces', () => `match_target=${selector('{job="app"')}`],
      ['no value', () => `match_target=${selector('{job=}')}`],
      ['no operator', () => `match_target=${selector('{job}')}`],
      ['an expression', () => `match_target=${selector('sum(up)')}`],
      ['a range', () => `match_target=${selector('up[5m]')}`],
      ['an offset', () => `match_target=${selector('{job="app"} offset 5m')}`],
      ['a bad regex', () => `match_target=${selector('{job=~"("}')}`],
      ['a quoted label name', () => `match_target=${selector('{"job"="app"}')}`],
      ['a bad escape', () => `match_target=${selector('{job="\\z"}')}`],
      ['a number', () => 'match_target=1'],
      ['blanks alone', () => 'match_target=%20'],
    ])('refuses %s alike', async (_name, query) => {
      const [a, b] = await both(`/api/v1/targets/metadata?${query()}`);
      expect(b.status).toBe('error');
      expect(a).toEqual(b);
    });

    it.each([
      ['limit 1: one target, whole', 'limit=1', 1],
      ['limit 2 on one family: two targets', 'metric=http_duration_seconds&limit=2', 2],
    ])('%s', async (_name, query, targets) => {
      const [full] = await both('/api/v1/targets/metadata');
      const [fullOfMetric] = await both('/api/v1/targets/metadata?metric=http_duration_seconds');
      for (const answer of await both(`/api/v1/targets/metadata?${query}`)) {
        const entries = answer.data as TargetEntry[];
        const reference = (query.includes('metric=') ? fullOfMetric : full).data as TargetEntry[];
        const kept = new Set(entries.map((e) => JSON.stringify(e.target)));
        expect(kept.size).toBe(targets);
        // Each target's entries, all of them.
        const ofKept = reference.filter((e) => kept.has(JSON.stringify(e.target)));
        expect(sorted({ ...answer, data: entries })).toEqual(sorted({ ...answer, data: ofKept }));
      }
    });
  });

  describe('/api/v1/metadata', () => {
    it.each<[string, string]>([
      ['every metric', ''],
      ['one metric on several targets', 'metric=http_duration_seconds'],
      ['an OpenMetrics unit', 'metric=om_latency_seconds'],
      ['an OpenMetrics info', 'metric=om_build'],
      ['help escapes in OpenMetrics', 'metric=om_requests'],
      ['an unknown metric', 'metric=nope'],
      ['a series name', 'metric=http_duration_seconds_bucket'],
      ['limit 0', 'limit=0'],
      ['a negative limit', 'limit=-5'],
      ['a limit past the metrics', 'limit=1000'],
      ['limit with a metric', 'metric=http_duration_seconds&limit=1'],
      ['limit 0 with a metric', 'metric=http_duration_seconds&limit=0'],
      ['limit_per_metric, which 2.42 does not know', 'limit_per_metric=1'],
      ['a bad limit_per_metric, ignored as well', 'limit_per_metric=abc&metric=twice'],
      ['the first of two limits', 'limit=-1&limit=abc'],
    ])('%s', async (name, query) => {
      const [a, b] = await both(`/api/v1/metadata?${query}`);
      expect(sorted(a)).toEqual(sorted(b));
      const empty = /unknown metric|series name|limit 0/;
      expect(Object.keys(b.data as object).length === 0).toBe(empty.test(name));
    });

    it.each([
      ['a word for a limit', 'limit=abc'],
      ['an exponent', 'limit=1e3'],
      ['the first of two limits', 'limit=abc&limit=2'],
    ])('refuses %s alike', async (_name, query) => {
      const [a, b] = await both(`/api/v1/metadata?${query}`);
      expect(b.status).toBe('error');
      expect(a).toEqual(b);
    });

    it('keeps limit metrics, each with all of its metadata', async () => {
      const [full] = await both('/api/v1/metadata');
      const all = sorted(full).data as Record<string, string[]>;
      for (const answer of await both('/api/v1/metadata?limit=3')) {
        const data = sorted(answer).data as Record<string, string[]>;
        expect(Object.keys(data)).toHaveLength(3);
        for (const [name, list] of Object.entries(data)) expect(list).toEqual(all[name]);
      }
    });
  });

  it('keeps a family no longer exposed for ten more scrapes, then drops it', async () => {
    const has = async (url: string) => {
      const answer = await get(url, '/api/v1/metadata?metric=no_samples');
      return Object.keys(answer.data as object).length === 1;
    };
    text = TEXT.replace(/# HELP no_samples .*\n# TYPE no_samples gauge\n/, '');
    const changed = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    expect([await has(ours.url), await has(theirsUrl)]).toEqual([true, true]);
    const gone = async (url: string) => {
      await waitFor('the family dropped', async () => !(await has(url)), 25_000, 200);
      return Date.now() - changed;
    };
    const [oursAfter, theirsAfter] = await Promise.all([gone(ours.url), gone(theirsUrl)]);
    // Eleven scrapes at one second, give or take the two scrapers' phases.
    expect(Math.abs(oursAfter - theirsAfter)).toBeLessThan(2_500);
  }, 45_000);
});
