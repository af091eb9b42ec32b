import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { AMTOOL_BIN } from './support/server-process';
import { describeWhen } from '@redisx/testing';

/**
 * `redisx-amtool check rules` against Debian's `promtool check rules` (2.42, where installed) on
 * the same files: every shipped rule file of `config/rules/` as it is (the specification's; the
 * server's own, under `server-only/`, call a template function Prometheus lacks) and every file
 * of the check table, compared line for line (error lines as sets: promtool walks Go maps in
 * random order).
 */
const promtool = spawnSync('sh', ['-c', 'command -v promtool'], { encoding: 'utf8' }).stdout.trim();
const describeWithUpstream = describeWhen(
  !!promtool,
  'promtool check rules compatibility skipped: promtool is not installed (apt-get install prometheus)',
);

const TABLE = join(__dirname, '..', 'src', 'cli', 'testdata', 'check-rules');
const RULES = join(__dirname, '..', 'config', 'rules');

function run(cmd: string, args: string[], cwd: string) {
  const result = spawnSync(cmd, args, { cwd, encoding: 'utf8' });
  const errors = result.stderr.split('\n').sort().join('\n');
  return { code: result.status, stdout: result.stdout, errors };
}

describeWithUpstream('check rules side by side with promtool', () => {
  const cases = [
    ...readdirSync(TABLE)
      .filter((f) => f.endsWith('.yml'))
      .map((f) => [TABLE, f]),
    ...readdirSync(RULES)
      .filter((f) => f.endsWith('.rules.yml'))
      .map((f) => [RULES, f]),
  ];

  it.each(cases)('%s/%s', (dir, file) => {
    const theirs = run(promtool, ['check', 'rules', file], dir);
    const ours = run(process.execPath, [AMTOOL_BIN, 'check', 'rules', file], dir);
    expect(ours).toEqual(theirs);
  });
});
