import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Labels } from '../tsdb/labels';
import { relabel } from './relabel';
import { decodeRelabelConfig, RelabelConfigError } from './relabel-config';

interface Case {
  input: Record<string, string>;
  rules: unknown[];
  output: Record<string, string> | null;
  refusedAtLoad?: string;
}

const { cases } = JSON.parse(
  readFileSync(join(__dirname, 'testdata', 'relabel-cases.json'), 'utf8'),
) as { cases: Case[] };

describe('relabel', () => {
  it.each(cases.map((c, i) => [i + 1, c] as const))("upstream's case %i", (_i, c) => {
    if (c.refusedAtLoad !== undefined) {
      expect(() => c.rules.map(decodeRelabelConfig)).toThrow(c.refusedAtLoad);
      return;
    }
    const result = relabel(Labels.fromRecord(c.input), c.rules.map(decodeRelabelConfig));
    expect(result?.toRecord() ?? null).toEqual(c.output);
  });
});

describe('decodeRelabelConfig', () => {
  it('takes upstream defaults', () => {
    const config = decodeRelabelConfig({ target_label: 'x' });
    expect(config).toMatchObject({
      sourceLabels: [],
      separator: ';',
      regexSource: '(.*)',
      replacement: '$1',
      action: 'replace',
      modulus: 0,
    });
    expect(decodeRelabelConfig({ action: 'LabelDrop', regex: 'tmp_.*' }).action).toBe('labeldrop');
  });

  it.each([
    [{ action: 'explode' }, 'unknown relabel action "explode"'],
    [
      { action: 'hashmod', target_label: 'x' },
      'relabel configuration for hashmod requires non-zero modulus',
    ],
    [
      { action: 'replace' },
      "relabel configuration for replace action requires 'target_label' value",
    ],
    [
      { action: 'replace', target_label: '0bad' },
      '"0bad" is invalid \'target_label\' for replace action',
    ],
    [
      { action: 'lowercase', target_label: 'x', replacement: 'y' },
      "'replacement' can not be set for lowercase action",
    ],
    [
      { action: 'labelmap', replacement: '-' },
      '"-" is invalid \'replacement\' for labelmap action',
    ],
    [
      { action: 'hashmod', target_label: '$1', modulus: 2 },
      '"$1" is invalid \'target_label\' for hashmod action',
    ],
    [
      { action: 'keepequal', target_label: 'x', regex: 'a' },
      "keepequal action requires only 'source_labels' and `target_label`, and no other fields",
    ],
    [
      { action: 'labeldrop', source_labels: ['a'] },
      "labeldrop action requires only 'regex', and no other fields",
    ],
    [{ action: 'drop', regex: '(' }, 'error parsing regexp: missing closing ): `^(?:()$`'],
    [
      { target_label: 'x', sourcelabels: ['a'] },
      'field sourcelabels not found in type relabel.plain',
    ],
  ])('refuses %j: %s', (raw, message) => {
    expect(() => decodeRelabelConfig(raw)).toThrow(RelabelConfigError);
    expect(() => decodeRelabelConfig(raw)).toThrow(message);
  });
});
