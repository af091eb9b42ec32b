import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCheckRules } from './check-rules.command';

const DIR = join(__dirname, 'testdata', 'check-rules');

/** What Debian's promtool 2.42 printed and returned for each file, captured once. */
const PROMTOOL = JSON.parse(readFileSync(join(DIR, 'promtool-2.42.json'), 'utf8')) as Record<
  string,
  { stdout: string; stderr: string; code: number }
>;

/** Error lines sorted: promtool ranges over Go maps, so its order of label errors varies. */
const sorted = (text: string) => text.split('\n').sort().join('\n');

describe('check rules', () => {
  it.each(Object.keys(PROMTOOL))("gives promtool 2.42's output and exit code for %s", (file) => {
    const stdout: string[] = [];
    const stderr: string[] = [];
    const cwd = process.cwd();
    process.chdir(DIR);
    try {
      const code = runCheckRules(
        [file],
        { lint: 'duplicate-rules', lintFatal: false },
        (l) => stdout.push(l),
        (l) => stderr.push(l),
      );
      expect(code).toBe(PROMTOOL[file].code);
    } finally {
      process.chdir(cwd);
    }
    expect(stdout.map((l) => `${l}\n`).join('')).toBe(PROMTOOL[file].stdout);
    expect(sorted(stderr.map((l) => `${l}\n`).join(''))).toBe(sorted(PROMTOOL[file].stderr));
  });

  it('exits 3 for lint problems only with --lint-fatal, and lints nothing with --lint=none', () => {
    const file = join(DIR, 'dups.yml');
    const quiet = () => undefined;
    expect(runCheckRules([file], { lint: 'duplicate-rules', lintFatal: true }, quiet, quiet)).toBe(
      3,
    );
    const out: string[] = [];
    expect(
      runCheckRules([file], { lint: 'none', lintFatal: true }, (l) => out.push(l), quiet),
    ).toBe(0);
    expect(out).toContain('  SUCCESS: 2 rules found');
  });

  it('checks the bundled rules of the specification', () => {
    const out: string[] = [];
    const file = join(__dirname, '..', '..', 'config', 'rules', 'redisx.rules.yml');
    expect(
      runCheckRules(
        [file],
        { lint: 'duplicate-rules', lintFatal: false },
        (l) => out.push(l),
        (l) => out.push(l),
      ),
    ).toBe(0);
    expect(out).toContain('  SUCCESS: 17 rules found');
  });

  it("checks the server's own bundled rules, which call exemplars", () => {
    const out: string[] = [];
    const file = join(
      __dirname,
      '..',
      '..',
      'config',
      'rules',
      'server-only',
      'redisx-traces.rules.yml',
    );
    expect(
      runCheckRules(
        [file],
        { lint: 'duplicate-rules', lintFatal: false },
        (l) => out.push(l),
        (l) => out.push(l),
      ),
    ).toBe(0);
    expect(out).toContain('  SUCCESS: 1 rules found');
  });

  it('refuses a file that does not exist as promtool does', () => {
    expect(() =>
      runCheckRules(
        ['nope.yml'],
        { lint: 'none', lintFatal: false },
        () => undefined,
        () => undefined,
      ),
    ).toThrow("path 'nope.yml' does not exist");
  });
});
