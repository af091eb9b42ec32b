import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeWhen, runProcess } from '@redisx/testing';
import { installedCommand } from './support/installed-command';

/**
 * The YAML mistakes of `src/config/testdata/yaml-syntax-errors.json` given to upstream's
 * `amtool check-config` (Debian's prometheus-alertmanager 0.25) and to ours: upstream says what
 * the file records, and ours says the same after the file's name. Without amtool the recorded
 * messages are still checked by `yaml-syntax-errors.spec.ts`.
 */
const amtool = installedCommand('amtool');
const describeWithUpstream = describeWhen(
  !!amtool,
  'upstream YAML error comparison skipped: amtool is not installed (apt-get install prometheus-alertmanager)',
);

const ourAmtool = join(__dirname, '..', 'bin', 'redisx-amtool.js');
const YAML_SYNTAX_CASES: { name: string; yaml: string; upstream: string }[] = JSON.parse(
  readFileSync(
    join(__dirname, '..', 'src', 'config', 'testdata', 'yaml-syntax-errors.json'),
    'utf8',
  ),
);

describeWithUpstream('YAML syntax errors, side by side with upstream amtool', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'am-yaml-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it.each(YAML_SYNTAX_CASES.map((c, i) => [c.name, i] as const))('%s', async (_name, i) => {
    const c = YAML_SYNTAX_CASES[i];
    const file = join(dir, `case-${i}.yml`);
    await writeFile(file, c.yaml);
    const [theirs, ours] = await Promise.all([
      runProcess(amtool, ['check-config', file]),
      runProcess(process.execPath, [ourAmtool, 'check-config', file]),
    ]);
    expect(/FAILED: (.*)/.exec(theirs.stdout)?.[1]).toBe(c.upstream);
    expect(/FAILED: (.*)/.exec(ours.stdout)?.[1]).toBe(`${file}: ${c.upstream}`);
    expect([ours.code, theirs.code]).toEqual([1, 1]);
  });
});
