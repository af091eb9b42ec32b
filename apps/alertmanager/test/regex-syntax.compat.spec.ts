import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeWhen, runProcess } from '@redisx/testing';
import { catastrophicCases, syntaxCases, type SyntaxCase } from '../src/re2/testdata/cases';
import type { ServerProcess } from './support/server-process';
import { startUpstream, UPSTREAM_BIN } from './support/upstream-alertmanager';
import { installedCommand } from './support/installed-command';

/**
 * `src/re2/testdata/syntax-cases.json` side by side with upstream 0.25 (Debian's, built with Go
 * 1.19): each pattern as a `match_re` through `amtool check-config` (anchored, as label matchers
 * compile) and as a silence's regex through the API (unanchored, as its validation compiles).
 * Where upstream answers otherwise the file says so and why (`upstream`, `why`): this checks
 * those differences are exactly the documented ones. Our side of every case is checked by the
 * unit spec beside the file, with or without upstream.
 */
const amtool = installedCommand('amtool');
const describeWithAmtool = describeWhen(
  !!amtool,
  'regex comparison with amtool skipped: amtool is not installed',
);
const describeWithUpstream = describeWhen(
  !!UPSTREAM_BIN,
  'regex comparison with the API skipped: prometheus-alertmanager is not installed',
);

const comparable = syntaxCases().filter((c) => c.upstream !== 'incomparable');
const expected = (c: SyntaxCase, form: 'anchored' | 'unanchored'): string =>
  (c.upstream !== 'incomparable' && c.upstream?.[form]) || c[form];

let dir: string;
beforeAll(async () => (dir = await mkdtemp(join(tmpdir(), 'am-regex-compat-'))));
afterAll(() => rm(dir, { recursive: true, force: true }));

const configWith = (route: string) =>
  `route:\n  receiver: default\n  routes:\n    - ${route}\nreceivers: [{name: default}, {name: hit}]\n`;

describeWithAmtool('regex verdicts agree with amtool check-config (anchored)', () => {
  const verdicts = new Map<string, string>();
  let files: string[] = [];

  beforeAll(async () => {
    files = await Promise.all(
      comparable.map(async (c, i) => {
        const file = join(dir, `case-${i}.yml`);
        await writeFile(
          file,
          configWith(`{receiver: hit, match_re: {v: ${JSON.stringify(c.pattern)}}}`),
        );
        return file;
      }),
    );
    // One run checks every file, printing `Checking '<file>'  SUCCESS` or `FAILED: <error>`.
    const { stdout } = await runProcess(amtool, ['check-config', ...files]);
    for (const block of stdout.split(/^Checking '/m).slice(1)) {
      const file = block.slice(0, block.indexOf("'"));
      verdicts.set(
        file,
        /FAILED: (.*)/.exec(block)?.[1] ?? (block.includes('SUCCESS') ? 'ok' : block),
      );
    }
  }, 120_000);

  it.each(comparable.map((c, i) => [c.label, c, i] as const))('%s', (_label, c, i) => {
    expect(verdicts.get(files[i])).toBe(expected(c, 'anchored'));
  });
});

describeWithUpstream('regex verdicts agree with the upstream API (unanchored)', () => {
  let upstream: ServerProcess;
  beforeAll(async () => {
    const file = join(dir, 'upstream.yml');
    await writeFile(file, 'route:\n  receiver: r\nreceivers: [{name: r}]\n');
    upstream = await startUpstream(file);
  });
  afterAll(() => upstream?.stop());

  // Upstream checks a silence's matchers unanchored; the second matcher keeps a pattern that
  // matches the empty string from failing another rule.
  const prefix = (pattern: string) =>
    `silence invalid: invalid label matcher 0: invalid regular expression ${JSON.stringify(pattern)}: `;

  it.each(comparable.map((c) => [c.label, c] as const))('%s', async (_label, c) => {
    const response = await fetch(`${upstream.url}/api/v2/silences`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        matchers: [
          { name: 'v', value: c.pattern, isRegex: true },
          { name: 'w', value: 'x', isRegex: false },
        ],
        startsAt: new Date().toISOString(),
        endsAt: new Date(Date.now() + 3_600_000).toISOString(),
        createdBy: 'tests',
        comment: 'regex compat',
      }),
    });
    const body = (await response.json()) as unknown;
    const verdict = response.status === 200 ? 'ok' : String(body).replace(prefix(c.pattern), '');
    expect(verdict).toBe(expected(c, 'unanchored'));
  });
});

describeWithAmtool('hostile regexes: amtool config routes test gives the same answers', () => {
  it.each(catastrophicCases().map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const file = join(dir, `hostile-${c.name.replace(/\W+/g, '-')}.yml`);
    await writeFile(
      file,
      configWith(`{receiver: hit, match_re: {v: ${JSON.stringify(c.pattern)}}}`),
    );
    const started = performance.now();
    const result = await runProcess(amtool, [
      'config',
      'routes',
      'test',
      `--config.file=${file}`,
      `v=${c.value}`,
    ]);
    expect(result.stdout.trim()).toBe(c.matches ? 'hit' : 'default');
    expect(performance.now() - started).toBeLessThan(5000);
  });
});
