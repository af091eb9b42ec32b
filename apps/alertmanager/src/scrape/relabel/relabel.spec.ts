import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { Labels } from '../../tsdb/labels';
import { decodeRelabelConfigs, relabel, relabeler } from '.';

interface RelabelCase {
  readonly name: string;
  readonly input: Record<string, string>;
  readonly rules: unknown[];
  readonly output?: Record<string, string>;
  readonly drop?: boolean;
  readonly error?: string;
}

const table = (file: string) =>
  (parse(readFileSync(join(__dirname, 'testdata', file), 'utf8')) as RelabelCase[]).map(
    (c) => [c.name, c] as const,
  );

const decode = (rules: unknown[]) =>
  decodeRelabelConfigs(rules.map((value, i) => ({ value, where: `rule ${i}` })));

describe.each(['upstream-relabel-cases.yml', 'relabel-cases.yml'])('relabel: %s', (file) => {
  it.each(table(file))('%s', (_, c) => {
    if (c.error !== undefined) {
      expect(() => decode(c.rules)).toThrow(c.error);
      return;
    }
    const result = relabel(Labels.fromRecord(c.input), decode(c.rules));
    expect(result?.toRecord()).toEqual(c.drop ? undefined : c.output);
  });
});

describe('relabel', () => {
  const input = Labels.fromRecord({ __name__: 'up', job: 'node', instance: 'a:9100' });

  it.each<[string, unknown[]]>([
    ['keep on a match', [{ source_labels: ['job'], regex: 'node', action: 'keep' }]],
    ['a replace without a match', [{ source_labels: ['job'], regex: 'x', target_label: 'j' }]],
    ['a replace to the same value', [{ source_labels: ['job'], target_label: 'job' }]],
    ['a labeldrop without a match', [{ regex: 'pod', action: 'labeldrop' }]],
    [
      'a change undone',
      [
        { target_label: 'x', replacement: '1' },
        { regex: 'x', action: 'labeldrop' },
      ],
    ],
  ])('returns the labels given when %s', (_, rules) => {
    const result = relabel(input, decode(rules));
    expect(result?.toRecord()).toEqual(input.toRecord());
    if (rules.length === 1) expect(result).toBe(input);
  });

  it('binds rules once for a pool, and passes sets through when there are none', () => {
    const drop = relabeler(decode([{ source_labels: ['job'], regex: 'node', action: 'drop' }]));
    expect(drop(input)).toBeUndefined();
    expect(drop(Labels.fromRecord({ job: 'redis' }))?.toRecord()).toEqual({ job: 'redis' });
    expect(relabeler([])(input)).toBe(input);
  });
});
