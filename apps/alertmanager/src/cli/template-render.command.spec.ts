import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AmtoolError } from './amtool-error';
import { CommandLineError } from './flags/flag-spec';
import { runTemplateRender, type TemplateRenderOptions } from './template-render.command';

const dir = mkdtempSync(join(tmpdir(), 'template-render-'));
writeFileSync(join(dir, 'a.tmpl'), '{{ define "greet" }}hello {{ .Receiver }}{{ end }}');
writeFileSync(
  join(dir, 'data.json'),
  JSON.stringify({ receiver: 'ops', status: 'firing', alerts: [] }),
);
const NOW = Date.UTC(2024, 0, 1);

async function render(options: Partial<TemplateRenderOptions>) {
  const lines: string[] = [];
  const all = {
    globs: [join(dir, '*.tmpl')],
    text: '',
    type: 'text' as const,
    dataFile: '',
    now: NOW,
  };
  await runTemplateRender({ ...all, ...options }, (l) => lines.push(l));
  return lines.join('\n');
}

describe('runTemplateRender', () => {
  it.each<[string, Partial<TemplateRenderOptions>, string]>([
    [
      'a glob file template with --template.data',
      { text: '{{ template "greet" . }}', dataFile: join(dir, 'data.json') },
      'hello ops',
    ],
    [
      "amtool's sample data",
      { text: '{{ .Receiver }} {{ .Status }} {{ len .Alerts }} {{ .GroupLabels }}' },
      'receiver alertstatus 2 map[grouplabelkey1:grouplabelvalue1 grouplabelkey2:grouplabelvalue2]',
    ],
    ['a default template', { text: '{{ template "__alertmanager" . }}' }, 'Alertmanager'],
    ['html escaping', { text: '{{ "<b>" }}', type: 'html' }, '&lt;b&gt;'],
  ])('renders %s', async (_name, options, expected) => {
    expect(await render(options)).toBe(expected);
  });

  it.each<[string, Partial<TemplateRenderOptions>, string]>([
    [
      'an execution error',
      { text: '{{ .Foo }}' },
      'template: :1:3: executing "" at <.Foo>: can\'t evaluate field Foo in type template.Data',
    ],
    ['a parse error', { text: '{{ if }}' }, 'template: :1:6: missing value for if'],
    [
      'unreadable data',
      { text: 'x', dataFile: join(dir, 'missing.json') },
      'failed to read template data',
    ],
  ])('fails with %s', async (_name, options, message) => {
    const error = await render(options).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AmtoolError);
    expect((error as Error).message).toContain(message);
  });

  it.each<[string, Partial<TemplateRenderOptions>, string]>([
    ['--template.glob', { globs: [], text: 'x' }, 'required flag --template.glob not provided'],
    ['--template.text', { text: '' }, 'required flag --template.text not provided'],
  ])('requires %s, as amtool', async (_name, options, message) => {
    const error = await render(options).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CommandLineError);
    expect((error as Error).message).toBe(message);
  });
});
