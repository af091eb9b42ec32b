import { goQuote } from './go-quote';

describe('goQuote', () => {
  // What Go's strconv.Quote prints for the same text.
  it.each([
    ['plain', '"plain"'],
    ['say "hi"\\', '"say \\"hi\\"\\\\"'],
    ['\x07\b\f\n\r\t\v', '"\\a\\b\\f\\n\\r\\t\\v"'],
    ['\x01\x1f\x7f', '"\\x01\\x1f\\x7f"'],
    ['é 日本 😀', '"é 日本 😀"'],
    ['\u0085\u00a0\u00ad', '"\\u0085\\u00a0\\u00ad"'],
    ['\u{e0001}', '"\\U000e0001"'],
    ['\ud800', '"\\ufffd"'],
  ])('%j', (text, quoted) => {
    expect(goQuote(text)).toBe(quoted);
  });
});
