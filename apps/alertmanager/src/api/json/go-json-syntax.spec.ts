import { GoJsonScanner, goQuoteByte } from './go-json-scanner';
import { goJsonSyntaxError, scanFirstValue } from './go-json-syntax';

// Messages of Go's encoding/json Decoder for the same bytes.
const CASES: Array<[string, string | undefined]> = [
  ['xx', "invalid character 'x' looking for beginning of value"],
  ['[1,]', "invalid character ']' looking for beginning of value"],
  ['{"a" 1}', "invalid character '1' after object key"],
  ['{"a":1 "b"}', `invalid character '"' after object key:value pair`],
  ['{1:2}', "invalid character '1' looking for beginning of object key string"],
  ['{"a":1,}', "invalid character '}' looking for beginning of object key string"],
  ['[tru]', "invalid character ']' in literal true (expecting 'e')"],
  ['[nul', 'unexpected EOF'],
  ['["a\\q"]', "invalid character 'q' in string escape code"],
  ['["\\u12g4"]', "invalid character 'g' in \\u hexadecimal character escape"],
  ['["a\nb"]', "invalid character '\\n' in string literal"],
  ['["a\u0001"]', "invalid character '\\x01' in string literal"],
  ['[1.]', "invalid character ']' after decimal point in numeric literal"],
  ['[1e]', "invalid character ']' in exponent of numeric literal"],
  ['[1e+]', "invalid character ']' in exponent of numeric literal"],
  ['[-]', "invalid character ']' in numeric literal"],
  ['[01]', "invalid character '1' after array element"],
  ['[1 2]', "invalid character '2' after array element"],
  ['[é]', "invalid character 'Ã' looking for beginning of value"],
  ['[\u007f]', "invalid character '\\x7f' looking for beginning of value"],
  ['[{"a":"b"}', 'unexpected EOF'],
  ['   ', 'unexpected EOF'],
  ['"abc', 'unexpected EOF'],
  ['[1] tail', undefined],
  ['12', undefined],
  ['-0.5e-3 ', undefined],
  ['"\\u00e9\\n" x', undefined],
  ['{"a":[true,false,null,{"b":{}}]}', undefined],
  ['['.repeat(10_000) + ']'.repeat(10_000), undefined],
  ['['.repeat(10_001), "invalid character '[' exceeded max depth"],
];

describe('goJsonSyntaxError', () => {
  it.each(CASES)('%j', (text, expected) => {
    expect(goJsonSyntaxError(text)).toBe(expected);
  });

  it.each(CASES)('%j gives the same answer scanned one byte at a time', (text) => {
    const scanner = new GoJsonScanner(Buffer.from(text));
    let result = scanner.scan(1);
    while (result === undefined) result = scanner.scan(1);
    expect(result).toEqual(scanFirstValue(text));
  });
});

describe('GoJsonScanner', () => {
  it('finds the byte ranges of the elements of a top-level array', () => {
    const text = ' [ {"a":[1,2]} , "x,]" ,3 ]  trailing';
    const scan = scanFirstValue(text);
    const bytes = Buffer.from(text);
    expect(scan.elements.map(([s, e]) => bytes.toString('utf8', s, e).trim())).toEqual([
      '{"a":[1,2]}',
      '"x,]"',
      '3',
    ]);
    expect(bytes.toString('utf8', 0, scan.end).trim()).toBe('[ {"a":[1,2]} , "x,]" ,3 ]');
  });
});

describe('goQuoteByte', () => {
  it.each([
    [0x27, "'\\''"],
    [0x22, `'"'`],
    [0x5c, "'\\\\'"],
    [0x09, "'\\t'"],
    [0x00, "'\\x00'"],
    [0x85, "'\\u0085'"],
    [0xa0, "'\\u00a0'"],
    [0xad, "'\\u00ad'"],
    [0xe9, "'é'"],
    [0x41, "'A'"],
  ])('%i', (byte, expected) => {
    expect(goQuoteByte(byte)).toBe(expected);
  });
});
