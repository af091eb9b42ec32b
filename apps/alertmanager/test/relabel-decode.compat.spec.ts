import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describeWhen, runProcess } from '@redisx/testing';
import { installedCommand } from './support/installed-command';

/**
 * The relabeling cases of `scrape/relabel/testdata/decode-cases.yml` say what Prometheus 2.42's
 * `promtool check config` answers for each rule (its message, or `OK`). Where Debian's promtool
 * is installed, this spec asks it again, so those recorded answers stay promtool's own; the
 * decoder's spec holds our messages to them.
 */
const promtool = installedCommand('promtool');
const describeWithUpstream = describeWhen(
  !!promtool,
  'promtool comparison skipped: promtool is not installed (apt-get install prometheus)',
);

interface DecodeCase {
  readonly name: string;
  readonly rule: unknown;
  readonly error?: string;
  readonly promtool?: string;
}

const cases = parse(
  readFileSync(
    join(__dirname, '..', 'src', 'scrape', 'relabel', 'testdata', 'decode-cases.yml'),
    'utf8',
  ),
) as { invalid: DecodeCase[]; valid: DecodeCase[] };

/**
 * A prometheus.yml holding the rule, each field on a line of its own from line 6, as the
 * recorded messages were taken (yaml.v2's errors name the line).
 */
function configWith(rule: unknown): string {
  const isMap = typeof rule === 'object' && rule !== null && !Array.isArray(rule);
  const fields = (isMap ? Object.entries(rule) : []).map(
    ([key, value], i) => `${i === 0 ? '      - ' : '        '}${key}: ${JSON.stringify(value)}`,
  );
  return [
    'scrape_configs:',
    '  - job_name: a',
    '    static_configs:',
    "      - targets: ['127.0.0.1:9']",
    // Metric relabeling: the same rules, without promtool also building the target from them
    // (a `labeldrop` of everything leaves a target no address, which is not a parsing error).
    '    metric_relabel_configs:',
    ...(isMap ? fields : [`      - ${JSON.stringify(rule)}`]),
    '',
  ].join('\n');
}

describeWithUpstream('the relabeling cases say what promtool answers', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'relabel-promtool-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  async function promtoolSays(name: string, rule: unknown): Promise<string> {
    const file = join(dir, `${name}.yml`);
    writeFileSync(file, configWith(rule));
    const result = await runProcess(promtool, ['check', 'config', file]);
    if (result.code === 0) return 'OK';
    const failed = /FAILED: parsing YAML file [^:]+: ([\s\S]*?)\s*$/.exec(result.stderr);
    if (failed === null) throw new Error(`promtool: ${result.stderr}`);
    return failed[1];
  }

  it.each(cases.invalid.map((c) => [c.name, c] as const))('refused: %s', async (name, c) => {
    expect(await promtoolSays(name, c.rule)).toBe(c.promtool ?? c.error);
  });

  it.each(cases.valid.map((c) => [c.name, c] as const))('accepted: %s', async (name, c) => {
    expect(await promtoolSays(name, c.rule)).toBe(c.promtool ?? 'OK');
  });
});
