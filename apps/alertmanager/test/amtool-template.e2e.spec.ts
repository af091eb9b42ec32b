import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runProcess } from '@redisx/testing';
import { AMTOOL_BIN } from './support/server-process';
import { installedCommand } from './support/installed-command';

/** `template render` through the binary, and the same text from upstream's amtool when installed. */
const upstreamAmtool = installedCommand('amtool');
if (!upstreamAmtool)
  console.warn('upstream template render comparison skipped: amtool is not installed');

const cases: [string, string][] = [
  ['{{ template "greeting" . }}', 'Hello grouplabelvalue1 from template'],
  ['{{ .Status | toUpper }} {{ len .Alerts }}', 'ALERTSTATUS 2'],
  ['{{ range .Alerts }}{{ .Labels.foo }}{{ .Labels.label1 }};{{ end }}', 'value1;bar;'],
  ['{{ .CommonLabels.SortedPairs.Names | join "," }}', 'commonlabelkey1,commonlabelkey2'],
  ['{{ printf "%05.1f|%v|%q" 3.14159 true "x" }}', '003.1|true|"x"'],
];

describe('redisx-amtool template render', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'am-tmpl-'));
    await writeFile(
      join(dir, 'greeting.tmpl'),
      '{{ define "greeting" }}Hello {{ .GroupLabels.grouplabelkey1 }} from template{{ end }}',
    );
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const render = (command: string, prefix: string[], text: string) =>
    runProcess(command, [
      ...prefix,
      'template',
      'render',
      `--template.glob=${join(dir, '*.tmpl')}`,
      `--template.text=${text}`,
    ]);

  it.each(cases)('renders %s against amtool sample data', async (text, expected) => {
    const ours = await render(process.execPath, [AMTOOL_BIN], text);
    expect(ours).toMatchObject({ code: 0 });
    expect(ours.stdout.trimEnd()).toBe(expected);
    if (upstreamAmtool) {
      const theirs = await render(upstreamAmtool, [], text);
      expect(ours.stdout.trimEnd()).toBe(theirs.stdout.trimEnd());
    }
  });

  it('names the template, line and column of a parse error and exits 1', async () => {
    const result = await render(process.execPath, [AMTOOL_BIN], '{{ if }}');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/template: .*:1:\d+: .*missing value for if/);
  });
});
