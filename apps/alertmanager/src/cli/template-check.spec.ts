import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCheckConfig } from './check-config.command';

const dir = mkdtempSync(join(tmpdir(), 'template-check-'));
const write = (name: string, text: string) => {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
};
write('ok.tmpl', '{{ define "mine" }}{{ .GroupLabels.alertname }}{{ end }}');
write('bad.tmpl.broken', '{{ define "x" }}{{ if }}{{ end }}');
const receiver = (text: string) =>
  `route: {receiver: a}\nreceivers:\n  - name: a\n    slack_configs: [{api_url: 'http://x/', text: '${text}'}]\n`;

async function check(config: string) {
  const lines: string[] = [];
  const code = await runCheckConfig([write('am.yml', config)], (l) => lines.push(l));
  return { code, lines: lines.filter((l) => l.startsWith('  ')) };
}

describe('check-config renders templates against sample data', () => {
  it.each<[string, string, number, string[]]>([
    [
      'a template file and a field using it',
      `templates: ['*.tmpl']\n${receiver('{{ template "mine" . }}')}`,
      0,
      ['  SUCCESS'],
    ],
    ['no templates and a valid field', receiver('{{ .CommonLabels.severity }}'), 0, []],
    [
      'a file that does not parse',
      `templates: ['*.broken']\n${receiver('x')}`,
      1,
      ['  FAILED: template: bad.tmpl.broken:1:22: missing value for if'],
    ],
    [
      'a field calling an undefined template',
      receiver('{{ template "nope" . }}'),
      1,
      [
        '  FAILED: receivers[a].slack_configs[0].text: template: :1:3: executing "" at <{{template "nope" .}}>: template "nope" not defined',
      ],
    ],
    [
      'a field reading an unknown field',
      receiver('{{ .Nope }}'),
      1,
      [
        '  FAILED: receivers[a].slack_configs[0].text: template: :1:3: executing "" at <.Nope>: can\'t evaluate field Nope in type template.Data',
      ],
    ],
  ])('%s', async (_name, config, code, lines) => {
    expect(await check(config)).toEqual({ code, lines });
  });
});
