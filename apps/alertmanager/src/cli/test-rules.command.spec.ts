import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runTestRules } from './test-rules.command';

const DIR = join(__dirname, 'testdata', 'test-rules');

/** What Debian's promtool 2.42 printed and returned for each test file, captured once. */
const PROMTOOL = JSON.parse(readFileSync(join(DIR, 'promtool-2.42.json'), 'utf8')) as Record<
  string,
  { stdout: string; stderr: string; code: number }
>;

/**
 * Where we follow current upstream instead of 2.42: a test group without `interval` loads its
 * series every `evaluation_interval` (2.42 loaded them all at time 0, a bug fixed later).
 */
const CURRENT_UPSTREAM: Record<string, { stdout: string; stderr: string; code: number }> = {
  'no-interval.test.yml': {
    stdout: 'Unit Testing:  no-interval.test.yml\n  SUCCESS\n\n',
    stderr: '',
    code: 0,
  },
};

/** Error lines sorted: promtool ranges over Go maps, so its order of label errors varies. */
const sorted = (r: { stdout: string; stderr: string; code: number }) => ({
  ...r,
  stderr: r.stderr.split('\n').sort().join('\n'),
});

/** YAML syntax errors are worded by the YAML parser, not libyaml: the line and verdict agree. */
const YAML_SYNTAX = new Set(['bad-yaml.test.yml']);

async function testRules(files: string[]) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const cwd = process.cwd();
  process.chdir(DIR);
  try {
    const code = await runTestRules(
      files,
      (l) => stdout.push(l),
      (l) => stderr.push(l),
    );
    return {
      code,
      stdout: stdout.map((l) => `${l}\n`).join(''),
      stderr: stderr.map((l) => `${l}\n`).join(''),
    };
  } finally {
    process.chdir(cwd);
  }
}

describe('test rules', () => {
  const files = Object.keys(PROMTOOL).filter((f) => !YAML_SYNTAX.has(f));

  it.each(files)("gives promtool's output and exit code for %s", async (file) => {
    expect(sorted(await testRules([file]))).toEqual(
      sorted(CURRENT_UPSTREAM[file] ?? PROMTOOL[file]),
    );
  });

  it('fails a test file with a YAML syntax error, naming the line', async () => {
    const result = await testRules(['bad-yaml.test.yml']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe(PROMTOOL['bad-yaml.test.yml'].stdout);
    expect(result.stderr).toMatch(/^ {2}FAILED:\nyaml: line \d+: \S/);
  });

  it('runs several files and fails when any one fails', async () => {
    const result = await testRules(['pass.test.yml', 'eval-error.test.yml', 'no-match.test.yml']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe(
      PROMTOOL['pass.test.yml'].stdout +
        PROMTOOL['eval-error.test.yml'].stdout +
        PROMTOOL['no-match.test.yml'].stdout,
    );
    expect(result.stderr).toBe(
      PROMTOOL['eval-error.test.yml'].stderr + PROMTOOL['no-match.test.yml'].stderr,
    );
  });

  it.each([
    ['the specification', 'redisx.rules.test.yml'],
    ["the server's own", 'server-only/redisx-traces.rules.test.yml'],
  ])('passes the tests of the bundled rules of %s', async (_, file) => {
    const rules = join(__dirname, '..', '..', 'config', 'rules', file);
    const result = await testRules([rules]);
    expect(result).toEqual({
      code: 0,
      stdout: `Unit Testing:  ${rules}\n  SUCCESS\n\n`,
      stderr: '',
    });
  });

  it('refuses a file that does not exist as promtool does', async () => {
    await expect(testRules(['nope.yml'])).rejects.toThrow("path 'nope.yml' does not exist");
  });
});
