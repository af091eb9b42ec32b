import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { amtoolCommand } from './amtool-command';
import { readAmtoolConfig, withFlagDefaults } from './amtool-config-file';
import { parseCommandLine } from './flags/parse-command-line';

describe('amtool config file', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'amtool-config-'));
    await writeFile(
      join(dir, 'user.yml'),
      'alertmanager.url: http://user:9093\nauthor: alice\nrequire-comment: false\n',
    );
    await writeFile(
      join(dir, 'system.yml'),
      'alertmanager.url: http://system:9093\noutput: json\n',
    );
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const parse = (argv: string[]) => {
    const files = [join(dir, 'user.yml'), join(dir, 'missing.yml'), join(dir, 'system.yml')];
    return parseCommandLine(withFlagDefaults(amtoolCommand, readAmtoolConfig(files)), argv).flags;
  };

  it('takes defaults from the first file that has the key', () => {
    expect(parse(['silence', 'add', 'a=b'])).toMatchObject({
      'alertmanager.url': 'http://user:9093',
      author: 'alice',
      'require-comment': false,
      output: 'json',
    });
  });

  it('lets flags on the command line win', () => {
    const flags = parse(['--alertmanager.url=http://cli:1', 'silence', 'add', '-a', 'bob', 'a=b']);
    expect(flags).toMatchObject({ 'alertmanager.url': 'http://cli:1', author: 'bob' });
  });

  it('uses the built-in defaults without files', () => {
    expect(readAmtoolConfig([join(dir, 'none.yml')])).toEqual({});
  });
});
