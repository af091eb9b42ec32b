import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeWhen, type RunningProcess, waitFor } from '@redisx/testing';
import type { ServerProcess } from './support/server-process';
import { PROMETHEUS_BIN, startSideBySide } from './support/side-by-side-prometheus';

/**
 * The expressions of `src/promql/testdata/printer-cases.json` as recording rules, loaded by Debian's
 * Prometheus (when installed) and by the server: each rule's `query` in `/api/v1/rules`, the
 * expression printed back from its tree, must read the same. Without Prometheus the recorded
 * prints are still checked by `printer.spec.ts`.
 */
const describeWithPrometheus = describeWhen(
  !!PROMETHEUS_BIN,
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
    ({ ours, theirs, theirsUrl } = await startSideBySide(
      dir,
      'global:\n  evaluation_interval: 1h\nrule_files: [rules.yml]\n',
    ));
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
