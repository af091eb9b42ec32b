import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { runProcess } from '@redisx/testing';
import { AMTOOL_BIN } from './support/server-process';

const appDir = join(__dirname, '..');
const examples = readdirSync(join(appDir, 'config'))
  .filter((f) => f.endsWith('.yml'))
  .map((f) => join('config', f));
const fixturesDir = join(appDir, 'src', 'config', 'testdata');
const fixtures = readdirSync(fixturesDir).filter((f) => f.endsWith('.yml'));

/** The expected error is the fixture's first line: `# error: <message after "<file>:">`. */
function expectedError(file: string): string {
  const first = readFileSync(join(fixturesDir, file), 'utf8').split('\n')[0];
  return first.replace(/^# error: /, '');
}

describe('redisx-amtool check-config', () => {
  it.each(examples)('accepts the bundled example %s', async (file) => {
    const result = await runProcess(process.execPath, [AMTOOL_BIN, 'check-config', file], {
      cwd: appDir,
    });
    expect(result.stdout).toMatch(
      new RegExp(`^Checking '${file}'  SUCCESS\nFound:\n - global config\n - route\n`),
    );
    expect(result.code).toBe(0);
  });

  it('accepts a file using opsgenie, victorops, pushover, telegram, discord, webex and wechat', async () => {
    const file = join('src', 'config', 'valid-testdata', 'more-integrations.yml');
    const result = await runProcess(process.execPath, [AMTOOL_BIN, 'check-config', file], {
      cwd: appDir,
    });
    expect(result.stdout).toContain(`Checking '${file}'  SUCCESS\nFound:\n - global config\n`);
    expect(result.stdout).toContain(' - 1 receivers\n');
    expect(result.code).toBe(0);
  });

  it('has error fixtures to check', () => {
    expect(fixtures.length).toBeGreaterThan(20);
  });

  it.each(fixtures)('rejects %s with its expected message', async (file) => {
    const path = relative(appDir, join(fixturesDir, file));
    const result = await runProcess(process.execPath, [AMTOOL_BIN, 'check-config', path], {
      cwd: appDir,
    });
    expect(result.code).toBe(1);
    const sep = expectedError(file).match(/^\d/) ? ':' : ': ';
    expect(result.stdout).toContain(
      `Checking '${path}'  FAILED: ${path}${sep}${expectedError(file)}\n`,
    );
  });

  it('validates several files and counts the failures', async () => {
    const bad = relative(appDir, join(fixturesDir, fixtures[0]));
    const result = await runProcess(
      process.execPath,
      [AMTOOL_BIN, 'check-config', examples[0], bad],
      { cwd: appDir },
    );
    expect(result.code).toBe(1);
    expect(result.stdout + result.stderr).toContain('failed to validate 1 file(s)');
  });

  it.each([
    [[], 0, /^usage: redisx-amtool/],
    [['check-config'], 1, /required argument 'check-files' not provided, try --help/],
    [['--version'], 0, /^redisx-amtool, version /],
  ])('%j exits %i', async (args, code, pattern) => {
    const result = await runProcess(process.execPath, [AMTOOL_BIN, ...args], { cwd: appDir });
    expect(result.code).toBe(code);
    expect(result.stdout + result.stderr).toMatch(pattern);
  });
});
