import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from './config-error';
import { loadConfigFile } from './load-config-file';

// Each fixture starts with `# error: <message after "<file>:">`, e.g. `# error: 7: route: ...`.
// Messages of whole-file errors have no line, so the runner puts back the space after the colon.
const dir = join(__dirname, 'testdata');
const cases = readdirSync(dir)
  .filter((name) => name.endsWith('.yml'))
  .map((name) => {
    const header = /^# error: (.*)$/m.exec(readFileSync(join(dir, name), 'utf8'))?.[1] ?? '';
    return [name, /^\d/.test(header) ? header : ` ${header}`] as const;
  });

describe('invalid configurations', () => {
  it('has fixtures, each with an expected error', () => {
    expect(cases.length).toBeGreaterThan(50);
    for (const [name, expected] of cases) expect([name, expected.trim()]).not.toEqual([name, '']);
  });

  it.each(cases)('%s', async (name, expected) => {
    const file = join(dir, name);
    const error = await loadConfigFile(file).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toBe(`${file}:${expected}`);
  });
});
