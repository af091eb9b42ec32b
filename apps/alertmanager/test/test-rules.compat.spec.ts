import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { AMTOOL_BIN } from './support/server-process';
import { installedCommand } from './support/installed-command';
import { describeWhen } from '@redisx/testing';

/**
 * `redisx-amtool test rules` against Debian's `promtool test rules` (2.42, where installed) on
 * the same files: the tests of every shipped rule file of `config/rules/` as they are (the
 * specification's; the server's own, under `server-only/`, are not Prometheus's) and every file
 * of the test-rules table, output and exit code compared (error lines as sets).
 */
const promtool = installedCommand('promtool');
const describeWithUpstream = describeWhen(
  !!promtool,
  'promtool test rules compatibility skipped: promtool is not installed (apt-get install prometheus)',
);

const TABLE = join(__dirname, '..', 'src', 'cli', 'testdata', 'test-rules');
const RULES = join(__dirname, '..', 'config', 'rules');

/**
 * Known differences: 2.42 loads a group's series at time 0 when it has no `interval` (current
 * upstream uses `evaluation_interval`, as we do); YAML syntax errors are worded differently.
 */
const DIFFERENT = new Set(['no-interval.test.yml', 'bad-yaml.test.yml']);

function run(cmd: string, args: string[], cwd: string) {
  const result = spawnSync(cmd, args, { cwd, encoding: 'utf8' });
  // Error lines as a set: promtool ranges over Go maps, so its order of label errors varies.
  const errors = result.stderr.split('\n').sort().join('\n');
  return { code: result.status, stdout: result.stdout, errors };
}

describeWithUpstream('test rules side by side with promtool', () => {
  const cases = [
    ...readdirSync(TABLE)
      .filter((f) => f.endsWith('.test.yml') && !DIFFERENT.has(f))
      .map((f) => [TABLE, f]),
    ...readdirSync(RULES)
      .filter((f) => f.endsWith('.test.yml'))
      .map((f) => [RULES, f]),
  ];

  it.each(cases)('%s/%s', (dir, file) => {
    const theirs = run(promtool, ['test', 'rules', file], dir);
    const ours = run(process.execPath, [AMTOOL_BIN, 'test', 'rules', file], dir);
    expect(ours).toEqual(theirs);
  });
});
