import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from './config-error';
import { parseConfig } from './parse-config';

/** YAML mistakes and the message upstream's yaml.v2 gives for each (`amtool check-config`). */
const YAML_SYNTAX_CASES: { name: string; yaml: string; upstream: string }[] = JSON.parse(
  readFileSync(join(__dirname, 'testdata', 'yaml-syntax-errors.json'), 'utf8'),
);

describe('YAML syntax errors read as upstream reports them', () => {
  it.each(YAML_SYNTAX_CASES.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    let error: unknown;
    try {
      parseConfig(c.yaml, 'am.yml');
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).reason).toBe(c.upstream);
    expect((error as ConfigError).message).toBe(`am.yml: ${c.upstream}`);
  });
});
