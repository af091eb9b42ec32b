import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeWhen } from '@redisx/testing';
import {
  PROMETHEUS_BIN,
  startSideBySideReady,
  type SideBySide,
} from './support/side-by-side-prometheus';

/**
 * `/api/v1/format_query` of the server and of Debian's Prometheus (when installed): for every case
 * of the pretty-printer's data file, by GET and by a POSTed form, the same status and the same
 * pretty-printed query (Prometheus's own where the data file records that it differs); for bad
 * queries the same status, error type and message.
 */
const describeWithPrometheus = describeWhen(
  !!PROMETHEUS_BIN,
  'format_query comparison skipped: prometheus is not installed (apt-get install prometheus)',
);

const CASES_FILE = join(__dirname, '../src/promql/testdata/prettify-cases.json');

/** Queries both refuse with the same words. */
const BAD_QUERIES = [
  '',
  '  \n  ',
  'sum(',
  'foo{',
  '1 +',
  'x[5m',
  'foo bar',
  'sum(x) by (',
  '{}',
  'rate(x)',
  'abs(x, y)',
  '"a" + 1',
  '1 == 1',
  'x offset 1s offset 2s',
  'unknown_fn(x)',
];

interface Case {
  query: string;
  pretty: string;
  prometheus2?: string;
}

interface Answer {
  code: number;
  body: unknown;
}

describeWithPrometheus('format_query side by side with Prometheus', () => {
  let dir: string;
  let servers: SideBySide;
  let cases: Case[] = [];

  beforeAll(async () => {
    cases = JSON.parse(await readFile(CASES_FILE, 'utf8')) as Case[];
    dir = await mkdtemp(join(tmpdir(), 'am-format-query-compat-'));
    servers = await startSideBySideReady(dir, 'global:\n  evaluation_interval: 1m\n');
  }, 30_000);

  afterAll(async () => {
    await servers?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  async function ask(base: string, query: string, method: 'GET' | 'POST'): Promise<Answer> {
    const params = new URLSearchParams({ query }).toString();
    const res =
      method === 'GET'
        ? await fetch(`${base}/api/v1/format_query?${params}`)
        : await fetch(`${base}/api/v1/format_query`, {
            method,
            headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
            body: params,
          });
    return { code: res.status, body: await res.json() };
  }

  it.each(['GET', 'POST'] as const)(
    'pretty-prints every case of the data file by %s',
    async (method) => {
      for (const c of cases) {
        const [ours, theirs] = await Promise.all([
          ask(servers.ours.url, c.query, method),
          ask(servers.theirsUrl, c.query, method),
        ]);
        expect({ query: c.query, ...ours }).toEqual({
          query: c.query,
          code: 200,
          body: { status: 'success', data: c.pretty },
        });
        expect({ query: c.query, ...theirs }).toEqual({
          query: c.query,
          code: 200,
          body: { status: 'success', data: c.prometheus2 ?? c.pretty },
        });
      }
    },
  );

  it.each(BAD_QUERIES.flatMap((q) => [[q, 'GET'] as const, [q, 'POST'] as const]))(
    'refuses %j by %s as Prometheus does',
    async (query, method) => {
      const theirs = await ask(servers.theirsUrl, query, method);
      expect(theirs.code).toBe(400);
      expect(await ask(servers.ours.url, query, method)).toEqual(theirs);
    },
  );

  it('takes a POSTed form before the query string, as Prometheus does', async () => {
    const answers = await Promise.all(
      [servers.ours.url, servers.theirsUrl].map(async (base) => {
        const res = await fetch(`${base}/api/v1/format_query?query=first`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body: 'query=sum(second)by(job)',
        });
        return { code: res.status, body: await res.json() };
      }),
    );
    expect(answers[0]).toEqual({
      code: 200,
      body: { status: 'success', data: 'sum by (job) (second)' },
    });
    expect(answers[1]).toEqual(answers[0]);
  });
});
