import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import {
  decodeRelabelConfig,
  decodeRelabelConfigs,
  RelabelConfigError,
  RelabelRegexp,
  type RelabelConfig,
} from '.';

interface DecodeCase {
  readonly name: string;
  readonly rule: unknown;
  readonly error?: string;
  readonly promtool?: string;
  readonly differs?: string;
  readonly decoded?: Record<string, unknown>;
}

const cases = parse(readFileSync(join(__dirname, 'testdata', 'decode-cases.yml'), 'utf8')) as {
  invalid: DecodeCase[];
  valid: DecodeCase[];
  targets: [string, boolean][];
};

/** A decoded rule in the terms of the file. */
function summary(config: RelabelConfig): Record<string, unknown> {
  return {
    action: config.action,
    sourceLabels: config.sourceLabels,
    separator: config.separator,
    regex: config.regex.source,
    modulus: config.modulus.toString(),
    targetLabel: config.targetLabel.source,
    replacement: config.replacement.source,
  };
}

function errorOf(rule: unknown): unknown {
  try {
    decodeRelabelConfig(rule);
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('decodeRelabelConfig', () => {
  it.each(cases.invalid.map((c) => [c.name, c] as const))('refuses %s', (_, c) => {
    const error = errorOf(c.rule);
    expect(error).toBeInstanceOf(RelabelConfigError);
    expect((error as Error).message).toBe(c.error);
    // Without `promtool`, `error` is promtool's text itself (test/relabel-decode.compat.spec.ts
    // asks promtool again); with it, promtool's text holds ours but where the case says why not.
    if (c.promtool !== undefined && !c.differs) expect(c.promtool).toContain(c.error);
  });

  it.each(cases.valid.map((c) => [c.name, c] as const))('accepts %s', (_, c) => {
    const rule = c.rule as Record<string, unknown>;
    const action = typeof rule['action'] === 'string' ? rule['action'].toLowerCase() : 'replace';
    expect(summary(decodeRelabelConfig(c.rule))).toMatchObject(c.decoded ?? { action });
  });

  it.each(cases.targets)('takes %j as a replace target_label: %s', (target, valid) => {
    const error = errorOf({ target_label: target });
    expect(error && (error as Error).message).toBe(
      valid ? undefined : `"${target}" is invalid 'target_label' for replace action`,
    );
  });

  it("gives upstream's defaults, sharing the default regex", () => {
    const config = decodeRelabelConfig({ target_label: 'a' });
    expect(summary(config)).toEqual({
      action: 'replace',
      sourceLabels: [],
      separator: ';',
      regex: '(.*)',
      modulus: '0',
      targetLabel: 'a',
      replacement: '$1',
    });
    expect(config.regex).toBe(RelabelRegexp.DEFAULT);
    expect(decodeRelabelConfig({ target_label: 'a', regex: '(.*)' }).regex).not.toBe(
      RelabelRegexp.DEFAULT,
    );
  });

  it('puts the place of the rule before its message', () => {
    const rules = [
      { value: { target_label: 'a' }, where: 'prometheus.yml:5: relabel_configs[0]' },
      { value: { action: 'nope' }, where: 'prometheus.yml:7: relabel_configs[1]' },
    ];
    expect(() => decodeRelabelConfigs(rules)).toThrow(
      'prometheus.yml:7: relabel_configs[1]: unknown relabel action "nope"',
    );
    expect(decodeRelabelConfigs(rules.slice(0, 1)).map((c) => c.targetLabel.source)).toEqual(['a']);
  });
});
