import { catastrophicCases } from '../re2/testdata/cases';
import { Matcher, escapeMatcherValue, type MatchType } from './matcher';
import { parseMatcher, parseMatchers } from './matcher-parser';
import { formatMatchers, matchesLabels, sortMatchers } from './matchers';

describe('parseMatcher', () => {
  it.each<[string, MatchType, string, string]>([
    ['foo=bar', '=', 'foo', 'bar'],
    ['foo="bar"', '=', 'foo', 'bar'],
    ['  foo  !=  "bar"  ', '!=', 'foo', 'bar'],
    ['foo=~"a|b"', '=~', 'foo', 'a|b'],
    ['foo!~a.*', '!~', 'foo', 'a.*'],
    ['foo=', '=', 'foo', ''],
    ['foo=""', '=', 'foo', ''],
    ['job:rate=x', '=', 'job:rate', 'x'],
    ['foo="say \\"hi\\""', '=', 'foo', 'say "hi"'],
    ['foo="a\\\\b"', '=', 'foo', 'a\\b'],
    ['foo="line\\nnext"', '=', 'foo', 'line\nnext'],
    ['foo="a\\xb"', '=', 'foo', 'a\\xb'],
    ['foo=a\\', '=', 'foo', 'a\\'],
    ['foo="a,b"', '=', 'foo', 'a,b'],
    ['foo=~"\\\\d+"', '=~', 'foo', '\\d+'],
  ])('parses %j', (input, type, name, value) => {
    const m = parseMatcher(input);
    expect([m.type, m.name, m.value]).toEqual([type, name, value]);
  });

  it.each([
    ['foo', 'bad matcher format: foo'],
    ['1foo=bar', 'bad matcher format: 1foo=bar'],
    ['foo-bar=x', 'bad matcher format: foo-bar=x'],
    ['foo=="x"', 'matcher value contains unescaped double quote: ="x"'],
    ['foo="bar', 'matcher value contains unescaped double quote: "bar'],
    ['foo=b"ar', 'matcher value contains unescaped double quote: b"ar'],
    ['foo=~"("', 'error parsing regexp: missing closing ): `^(?:()$`'],
  ])('rejects %j', (input, message) => {
    expect(() => parseMatcher(input)).toThrow(message);
  });

  it('reads long runs of spaces in linear time', () => {
    const spaces = ' '.repeat(200_000);
    const started = performance.now();
    expect(parseMatcher(`a=x${spaces}b${spaces}`).value).toBe(`x${spaces}b`);
    expect(() => parseMatcher(`${spaces}a${spaces}`)).toThrow('bad matcher format');
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

describe('parseMatchers', () => {
  it.each([
    ['{a="1", b=~"x|y"}', ['a="1"', 'b=~"x|y"']],
    ['a=1,b!=2', ['a="1"', 'b!="2"']],
    ['{foo = "bar", dings != "bums", }', ['foo="bar"', 'dings!="bums"']],
    ['{quote="She said: \\"Hi, all\\""}', ['quote="She said: \\"Hi, all\\""']],
    ['{}', []],
    ['', []],
  ])('parses %j', (input, printed) => {
    expect(parseMatchers(input).map(String)).toEqual(printed);
  });
});

describe('Matcher', () => {
  it.each<[MatchType, string, string, string]>([
    ['=', 'a', 'b', 'a="b"'],
    ['!=', 'a', 'b', 'a!="b"'],
    ['=~', 'a', 'b|c', 'a=~"b|c"'],
    ['!~', 'a', 'b', 'a!~"b"'],
    ['=', 'a', 'x"y\\z\nw', 'a="x\\"y\\\\z\\nw"'],
    ['=', 'a b', 'c', '"a b"="c"'],
  ])('prints %s %s %j as %s', (type, name, value, printed) => {
    expect(new Matcher(type, name, value).toString()).toBe(printed);
    expect(JSON.stringify(new Matcher(type, name, value))).toBe(JSON.stringify(printed));
  });

  it.each<[string, string, boolean]>([
    ['a="x"', 'x', true],
    ['a="x"', 'y', false],
    ['a="x"', '', false],
    ['a=""', '', true],
    ['a!="x"', '', true],
    ['a!="x"', 'x', false],
    ['a=~"x"', 'xx', false],
    ['a=~"x.*"', 'xyz', true],
    ['a=~"x"', 'ax', false],
    ['a=~".*"', '', true],
    ['a=~".+"', '', false],
    ['a!~"x|y"', 'z', true],
    ['a!~"x|y"', 'y', false],
    ['a!~"x"', '', true],
  ])('%s on %j is %s', (matcher, value, expected) => {
    expect(parseMatcher(matcher).matches(value)).toBe(expected);
  });

  it('reports isRegex and isEqual for the API', () => {
    expect(['=', '!=', '=~', '!~'].map((t) => parseMatcher(`a${t}b`).isRegex)).toEqual([
      false,
      false,
      true,
      true,
    ]);
    expect(['=', '!=', '=~', '!~'].map((t) => parseMatcher(`a${t}b`).isEqual)).toEqual([
      true,
      false,
      true,
      false,
    ]);
  });
});

describe('matcher sets', () => {
  it('sorts by name, then value, then operator', () => {
    const sorted = sortMatchers(parseMatchers('b="1",a!~"2",a=~"2",a="3",a="2"'));
    expect(formatMatchers(sorted)).toBe('{a="2",a=~"2",a!~"2",a="3",b="1"}');
  });

  it.each<[string, Record<string, string>, boolean]>([
    ['{a="1",b=~"x|y"}', { a: '1', b: 'y' }, true],
    ['{a="1",b=~"x|y"}', { a: '1', b: 'z' }, false],
    ['{a="1",b=~"x|y"}', { a: '1' }, false],
    ['{c!="x"}', {}, true],
    ['{c=""}', { a: '1' }, true],
    ['{c=""}', { c: 'v' }, false],
    ['{}', { a: '1' }, true],
  ])('%s matches %j: %s', (set, labels, expected) => {
    expect(matchesLabels(parseMatchers(set), labels)).toBe(expected);
  });
});

// A backtracking engine takes seconds to ages on each of these; RE2 answers in milliseconds.
describe('hostile regexes', () => {
  it.each(catastrophicCases().map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const started = performance.now();
    expect(new Matcher('=~', 'v', c.pattern).matches(c.value)).toBe(c.matches);
    expect(new Matcher('!~', 'v', c.pattern).matches(c.value)).toBe(!c.matches);
    expect(parseMatcher(`v=~"${escapeMatcherValue(c.pattern)}"`).matches(c.value)).toBe(c.matches);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
