import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getFreePort, startProcess, waitFor, type RunningProcess } from '@redisx/testing';
import { startServerProcess, type ServerProcess } from './support/server-process';

/**
 * The expressions of `src/promql/testdata/printer-cases.json` as recording rules, loaded by Debian's
 * Prometheus (when installed) and by the server: each rule's `query` in `/api/v1/rules`, the
 * expression printed back from its tree, must read the same. Without Prometheus the recorded
 * prints are still checked by `printer.spec.ts`.
 */
const prometheus = spawnSync('sh', ['-c', 'command -v prometheus'], {
  encoding: 'utf8',
}).stdout.trim();
const describeWithPrometheus = prometheus ? describe : describe.skip;
if (!prometheus)
  console.warn(
    'rule query comparison skipped: prometheus is not installed (apt-get install prometheus)',
  );

const CASES: { query: string; printed: string }[] = JSON.parse(
  readFileSync(join(__dirname, '..', 'src', 'promql', 'testdata', 'printer-cases.json'), 'utf8'),
);

type RulesAnswer = { data: { groups: { rules: { name: string; query: string }[] }[] } };

describeWithPrometheus("rules' queries printed as Prometheus prints them", () => {
  let dir: string;
  let ours: ServerProcess;
  let theirs: RunningProcess;
  let theirsUrl = '';

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'am-rule-query-'));
    const rules = CASES.map(
      (c, i) => `      - record: r${i}\n        expr: ${JSON.stringify(c.query)}\n`,
    );
    await writeFile(join(dir, 'rules.yml'), `groups:\n  - name: g\n    rules:\n${rules.join('')}`);
    await writeFile(
      join(dir, 'prometheus.yml'),
      'global:\n  evaluation_interval: 1h\nrule_files: [rules.yml]\n',
    );
    await writeFile(join(dir, 'am.yml'), 'route:\n  receiver: none\nreceivers:\n  - name: none\n');
    const port = await getFreePort();
    theirsUrl = `http://127.0.0.1:${port}`;
    theirs = startProcess(prometheus, [
      `--config.file=${join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(dir, 'tsdb')}`,
      `--web.listen-address=127.0.0.1:${port}`,
    ]);
    ours = await startServerProcess(join(dir, 'am.yml'), [
      `--rules.config.file=${join(dir, 'prometheus.yml')}`,
    ]);
    await waitFor('Prometheus to load the rules', async () => {
      const res = await fetch(`${theirsUrl}/api/v1/rules`).catch(() => undefined);
      return res?.status === 200 && ((await res.json()) as RulesAnswer).data.groups.length === 1;
    });
  }, 30_000);

  afterAll(async () => {
    await ours?.stop();
    await theirs?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('gives every rule the query Prometheus gives it', async () => {
    const queries = async (url: string) =>
      ((await (await fetch(`${url}/api/v1/rules`)).json()) as RulesAnswer).data.groups[0].rules.map(
        (r) => [r.name, r.query],
      );
    const [mine, upstream] = await Promise.all([queries(ours.url), queries(theirsUrl)]);
    expect(mine).toEqual(upstream);
    expect(upstream.map(([, q]) => q)).toEqual(CASES.map((c) => c.printed));
  });
});
