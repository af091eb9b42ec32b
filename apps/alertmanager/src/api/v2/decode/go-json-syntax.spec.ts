import { goJsonSyntaxError } from './go-json-syntax';

describe('goJsonSyntaxError', () => {
  it.each([
    ['xx', "invalid character 'x' looking for beginning of value"],
    ['[1,]', "invalid character ']' looking for beginning of value"],
    ['{"a" 1}', "invalid character '1' after object key"],
    ['{"a":1 "b"}', `invalid character '"' after object key:value pair`],
    ['{1:2}', "invalid character '1' looking for beginning of object key string"],
    ['[tru]', "invalid character ']' in literal true (expecting 'e')"],
    ['["a\\q"]', "invalid character 'q' in string escape code"],
    ['["a\nb"]', "invalid character '\\n' in string literal"],
    ['[1.]', "invalid character ']' after decimal point in numeric literal"],
    ['[-]', "invalid character ']' in numeric literal"],
    ['[{"a":"b"}', 'unexpected EOF'],
    ['   ', 'unexpected EOF'],
    ['[1] tail', undefined],
  ])('%j', (text, expected) => {
    expect(goJsonSyntaxError(text)).toBe(expected);
  });
});
