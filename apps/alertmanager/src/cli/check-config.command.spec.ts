import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCheckConfig } from './check-config.command';

const dir = mkdtempSync(join(tmpdir(), 'check-config-'));
const write = (name: string, text: string) => {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
};
const good = write(
  'good.yml',
  'route: {receiver: a}\nreceivers: [{name: a}]\ntemplates: ["*.tmpl"]\n',
);
const bad = write('bad.yml', 'route:\n  receiver: b\nreceivers: [{name: a}]\n');
const missing = join(dir, 'missing.yml');

async function run(files: string[], validate?: () => Promise<void>) {
  const lines: string[] = [];
  const code = await runCheckConfig(files, (line) => lines.push(line), validate);
  return { code, lines };
}

describe('runCheckConfig', () => {
  it.each<[string, string[], number, string[]]>([
    [
      'a valid file',
      [good],
      0,
      [
        `Checking '${good}'  SUCCESS`,
        'Found:',
        ' - global config',
        ' - route',
        ' - 0 inhibit rules',
        ' - 1 receivers',
        ' - 1 templates',
        '  SUCCESS',
        '',
      ],
    ],
    [
      'an invalid file',
      [bad],
      1,
      [
        `Checking '${bad}'  FAILED: ${bad}:2: route.receiver: undefined receiver "b" used in route`,
        '',
        'amtool: error: failed to validate 1 file(s)',
      ],
    ],
    [
      'a missing file among others',
      [bad, good, missing],
      1,
      [
        `Checking '${bad}'  FAILED: ${bad}:2: route.receiver: undefined receiver "b" used in route`,
        '',
        `Checking '${good}'  SUCCESS`,
        'Found:',
        ' - global config',
        ' - route',
        ' - 0 inhibit rules',
        ' - 1 receivers',
        ' - 1 templates',
        '  SUCCESS',
        '',
        `Checking '${missing}'  FAILED: ${missing}: no such file or directory`,
        '',
        'amtool: error: failed to validate 2 file(s)',
      ],
    ],
  ])('prints amtool output for %s', async (_name, files, code, lines) => {
    expect(await run(files)).toEqual({ code, lines });
  });

  it.each<[string, () => Promise<void>, number, string]>([
    ['passes', async () => undefined, 0, '  SUCCESS'],
    [
      'fails',
      async () => Promise.reject(new Error('template: x:1: unexpected EOF')),
      1,
      '  FAILED: template: x:1: unexpected EOF',
    ],
  ])('reports templates when the template check %s', async (_name, validate, code, line) => {
    const result = await run([good], validate);
    expect(result.code).toBe(code);
    expect(result.lines.slice(7, 9)).toEqual([line, '']);
  });
});
