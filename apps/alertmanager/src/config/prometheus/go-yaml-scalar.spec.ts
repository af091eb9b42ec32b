import { compareGoYamlKeys, goYamlScalar } from './go-yaml-scalar';
import { formatBase2Bytes } from './base2-bytes-text';

describe('goYamlScalar', () => {
  // Each as Prometheus 2.42 (yaml.v2) printed it.
  it.each([
    ['plain text', 'localhost:9090', 'localhost:9090'],
    ['a regex', '(.*):\\d+', '(.*):\\d+'],
    ['a replacement', '${1}', '${1}'],
    ['the secret token', '<secret>', '<secret>'],
    ['an inner quote', "it's", "it's"],
    ['non-ASCII letters', 'über', 'über'],
    ['an empty string', '', '""'],
    ['a number', '123', '"123"'],
    ['a YAML 1.1 bool', 'yes', '"yes"'],
    ['a hex number', '0x1F', '"0x1F"'],
    ['a float', '.5', '".5"'],
    ['a sexagesimal number', '1:20', '"1:20"'],
    ['a date', '2001-12-14', '"2001-12-14"'],
    ['null', '~', '"~"'],
    ['": " inside', 'a: b', "'a: b'"],
    ['a leading #', '#x', "'#x'"],
    ['" #" inside', 'x #y', "'x #y'"],
    ['a leading space', ' lead', "' lead'"],
    ['a leading "- "', '- x', "'- x'"],
    ['a leading *', '*a', "'*a'"],
    ['a leading @', '@x', "'@x'"],
    ['a tab', 'a\tb', '"a\\tb"'],
  ])('writes %s as yaml.v2 does', (_, text, expected) => {
    expect(goYamlScalar(text)).toBe(expected);
  });

  it('sorts map keys as yaml.v2 does: digits as numbers, letters after other characters', () => {
    const keys = ['label10', 'b', 'label9', 'label_9', 'a2', 'a10', 'A', '_x'];
    expect(keys.sort(compareGoYamlKeys)).toEqual([
      '_x',
      'A',
      'a2',
      'a10',
      'b',
      'label_9',
      'label9',
      'label10',
    ]);
  });
});

describe('formatBase2Bytes', () => {
  it.each([
    [0, '0B'],
    [512, '512B'],
    [1024, '1KiB'],
    [1536, '1KiB512B'],
    [2 ** 30, '1GiB'],
    [2 ** 30 + 2 ** 29, '1GiB512MiB'],
    [2 ** 40, '1TiB'],
  ])('prints %d bytes as %s, as Prometheus prints a size', (bytes, expected) => {
    expect(formatBase2Bytes(bytes)).toBe(expected);
  });
});
