import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  describeWhen,
  getFreePort,
  httpAnswers,
  startProcess,
  waitFor,
  type RunningProcess,
} from '@redisx/testing';
import { startServerProcess, type ServerProcess } from './support/server-process';
import { PROMETHEUS_BIN } from './support/side-by-side-prometheus';

/**
 * Queries of 1,000 and 3,000 binary operators, which Prometheus parses and evaluates at any
 * length: the server answers them through its query API with the values a left-to-right
 * evaluation gives, and (where Debian's `prometheus` 2.42 is installed) as Prometheus answers
 * them, both scraping the same loopback exporter.
 */
const describeWithPrometheus = describeWhen(
  !!PROMETHEUS_BIN,
  'long operator chains side by side skipped: prometheus is not installed (apt-get install prometheus)',
);

const VALUES = { a: 3, b: 5 };
const EXPOSITION = `# TYPE chain_value gauge\n${Object.entries(VALUES)
  .map(([series, value]) => `chain_value{series="${series}"} ${value}`)
  .join('\n')}\n`;

/** `chain_value` `count` times over, the operators taken from `ops` in turn. */
function chain(
  count: number,
  ops: readonly string[],
): { query: string; value: (v: number) => number } {
  const used = Array.from({ length: count }, (_, i) => ops[i % ops.length]);
  const query = ['chain_value', ...used.map((op) => `${op} chain_value`)].join(' ');
  // `*` and `/` bind tighter than `+` and `-`, all from the left, as in PromQL.
  const value = (v: number) => {
    let sum = 0;
    let sign = 1;
    let term = v;
    for (const op of used) {
      if (op === '*') term *= v;
      else if (op === '/') term /= v;
      else {
        sum += sign * term;
        sign = op === '-' ? -1 : 1;
        term = v;
      }
    }
    return sum + sign * term;
  };
  return { query, value };
}

const CHAINS = [
  ['1,000 subtractions', chain(1000, ['-'])],
  ['3,000 operators of two strengths', chain(3000, ['-', '+', '*', '/'])],
] as const;

type Answer = { status: string; data: { resultType: string; result: unknown[] } };

describe('long operator chains through the query API', () => {
  let dir: string;
  let exporter: Server;
  let target = '';
  let ours: ServerProcess;
  let at = 0;

  /** An instant query at `time` (seconds), or now. */
  const get = async (base: string, query: string, time?: number): Promise<Answer> => {
    const params = new URLSearchParams({
      query,
      ...(time === undefined ? {} : { time: String(time) }),
    });
    return (await (await fetch(`${base}/api/v1/query?${params}`)).json()) as Answer;
  };

  /**
   * Waits until a server has scraped the exporter four times: the query time, a second before
   * now, then has samples of both servers.
   */
  const scraped = (base: string) =>
    waitFor(
      `four scrapes by ${base}`,
      async () => {
        const answer = await get(base, 'count_over_time(up[10s])');
        const row = answer.data?.result[0] as { value: [number, string] } | undefined;
        return Number(row?.value[1] ?? 0) >= 4;
      },
      20_000,
    );

  beforeAll(async () => {
    exporter = createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' }).end(EXPOSITION),
    );
    await new Promise<void>((resolve) => exporter.listen(0, '127.0.0.1', resolve));
    target = `127.0.0.1:${(exporter.address() as AddressInfo).port}`;
    dir = await mkdtemp(join(tmpdir(), 'am-chains-'));
    await writeFile(
      join(dir, 'prometheus.yml'),
      `global:\n  scrape_interval: 1s\n  scrape_timeout: 500ms\nscrape_configs:\n  - job_name: app\n    static_configs:\n      - targets: ['${target}']\n`,
    );
    await writeFile(join(dir, 'am.yml'), 'route:\n  receiver: none\nreceivers:\n  - name: none\n');
    ours = await startServerProcess(join(dir, 'am.yml'), [
      `--rules.config.file=${join(dir, 'prometheus.yml')}`,
    ]);
    await scraped(ours.url);
    at = Math.floor(Date.now() / 1000) - 1;
  }, 30_000);

  afterAll(async () => {
    await ours?.stop();
    await new Promise((resolve) => exporter?.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  it.each(CHAINS)('evaluates %s from the left', async (_, { query, value }) => {
    const answer = await get(ours.url, query, at);
    expect(answer.status).toBe('success');
    const rows = (
      answer.data.result as { metric: Record<string, string>; value: [number, string] }[]
    )
      .map((r) => [r.metric['series'], Number(r.value[1])])
      .sort();
    expect(rows).toEqual(Object.entries(VALUES).map(([series, v]) => [series, value(v)]));
  });

  describeWithPrometheus('side by side with Prometheus', () => {
    let theirs: RunningProcess;
    let theirsUrl = '';

    beforeAll(async () => {
      const port = await getFreePort();
      theirsUrl = `http://127.0.0.1:${port}`;
      theirs = startProcess(PROMETHEUS_BIN, [
        `--config.file=${join(dir, 'prometheus.yml')}`,
        `--storage.tsdb.path=${join(dir, 'tsdb')}`,
        `--web.listen-address=127.0.0.1:${port}`,
      ]);
      await waitFor('Prometheus ready', () => httpAnswers(`${theirsUrl}/-/ready`), 20_000);
      await scraped(theirsUrl);
      at = Math.floor(Date.now() / 1000) - 1;
    }, 30_000);

    afterAll(() => theirs?.stop('SIGTERM'));

    it.each(CHAINS)('answers %s as Prometheus does', async (_, { query }) => {
      const [a, b] = await Promise.all([get(ours.url, query, at), get(theirsUrl, query, at)]);
      const rows = (answer: Answer) => answer.data.result.map((r) => JSON.stringify(r)).sort();
      expect([a.status, a.data.resultType, rows(a)]).toEqual([
        b.status,
        b.data.resultType,
        rows(b),
      ]);
    });
  });
});
