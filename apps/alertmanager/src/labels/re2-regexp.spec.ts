import { compileAnchoredRe2, compileRe2 } from './re2-regexp';

describe('compileAnchoredRe2', () => {
  it.each<[string, string[], string[]]>([
    ['foo', ['foo'], ['foobar', 'xfoo', '']],
    ['foo|bar', ['foo', 'bar'], ['foobar']],
    ['a.c', ['abc', 'a c'], ['a\nc', 'ac']],
    ['(?s)a.c', ['a\nc'], ['ac']],
    ['(?i)foo', ['FOO', 'Foo', 'foo'], ['fo']],
    ['(?i)[a-c]x', ['Ax', 'bX'], ['dx']],
    ['a(?i:b)c', ['aBc', 'abc'], ['ABc', 'abC']],
    ['(?i)a(?-i)b', ['Ab', 'ab'], ['AB']],
    ['(?m)a$', ['a'], ['a\n']],
    ['(?m:a$\n^b)', ['a\nb'], ['ab']],
    ['x*', ['', 'xxx'], ['y']],
    ['x{2,3}', ['xx', 'xxx'], ['x', 'xxxx']],
    ['x{2}', ['xx'], ['xxx']],
    ['x{2,}', ['xxxxx'], ['x']],
    ['a{,3}', ['a{,3}'], ['aaa']],
    ['(?U)a+', ['aaa'], ['']],
    ['\\d+\\.\\d+', ['1.5'], ['1x5', '١.٥']],
    ['\\s', [' ', '\t'], ['\u00a0']],
    ['\\w+', ['a_1'], ['é']],
    ['[[:alpha:]]+', ['abcXYZ'], ['a1']],
    ['[[:^digit:]]', ['a'], ['1']],
    ['[^a]', ['\n', 'b'], ['a']],
    ['[]a]', [']', 'a'], ['b']],
    ['[a-]', ['-', 'a'], ['b']],
    ['\\pL+', ['héllo'], ['1']],
    ['\\p{Greek}', ['α'], ['a']],
    ['\\P{L}', ['1'], ['a']],
    ['[\\p{Lu}0-9]+', ['A1'], ['a']],
    ['\\Qa.b\\E', ['a.b'], ['axb']],
    ['\\x41\\x{42}\\101', ['ABA'], ['AB']],
    ['a\\-b\\#c\\_d', ['a-b#c_d'], []],
    ['foo\\z', ['foo'], ['foo\n']],
    ['(?P<name>a)(?<other>b)', ['ab'], []],
    ['^a$', ['a'], []],
    ['^*a', ['a'], []],
    ['{', ['{'], []],
    ['a}', ['a}'], []],
    ['a/b', ['a/b'], []],
    ['.*', ['', 'anything'], ['x\ny']],
    ['(a|b)*c', ['ababc', 'c'], ['abab']],
  ])('%s', (pattern, matching, notMatching) => {
    const re = compileAnchoredRe2(pattern);
    for (const s of matching) expect([s, re.test(s)]).toEqual([s, true]);
    for (const s of notMatching) expect([s, re.test(s)]).toEqual([s, false]);
  });

  it.each([
    ['(', 'error parsing regexp: missing closing ): `^(?:()$`'],
    [')', 'error parsing regexp: unexpected ): `^(?:))$`'],
    ['[a', 'error parsing regexp: missing closing ]: `[a)$`'],
    ['*', 'error parsing regexp: missing argument to repetition operator: `*`'],
    ['a|*', 'error parsing regexp: missing argument to repetition operator: `*`'],
    ['a**', 'error parsing regexp: invalid nested repetition operator: `**`'],
    ['a*?+', 'error parsing regexp: invalid nested repetition operator: `*?+`'],
    ['\\q', 'error parsing regexp: invalid escape sequence: `\\q`'],
    ['\\1', 'error parsing regexp: invalid escape sequence: `\\1`'],
    ['\\C', 'error parsing regexp: invalid escape sequence: `\\C`'],
    ['[z-a]', 'error parsing regexp: invalid character class range: `z-a`'],
    ['[[:foo:]]', 'error parsing regexp: invalid character class range: `[:foo:]`'],
    ['\\p{Foo}', 'error parsing regexp: invalid character class range: `\\p{Foo}`'],
    ['a{1001}', 'error parsing regexp: invalid repeat count: `{1001}`'],
    ['a{3,2}', 'error parsing regexp: invalid repeat count: `{3,2}`'],
    ['(a{100}){100}', 'error parsing regexp: invalid repeat count: `{100}`'],
    ['(?=a)', 'error parsing regexp: invalid or unsupported Perl syntax: `(?=`'],
    ['(?!a)', 'error parsing regexp: invalid or unsupported Perl syntax: `(?!`'],
    ['(?<=a)', 'error parsing regexp: invalid named capture: `(?<=a))$`'],
    ['(?P<a-b>x)', 'error parsing regexp: invalid named capture: `(?P<a-b>`'],
    ['(?i', 'error parsing regexp: missing closing ): `^(?:(?i)$`'],
    ['(?x)', 'error parsing regexp: invalid or unsupported Perl syntax: `(?x`'],
    ['a\\', 'error parsing regexp: missing closing ): `^(?:a\\)$`'],
  ])('rejects %s', (pattern, message) => {
    expect(() => compileAnchoredRe2(pattern)).toThrow(message);
  });

  it('reports a trailing backslash on unanchored patterns', () => {
    expect(() => compileRe2('a\\')).toThrow(
      'error parsing regexp: trailing backslash at end of expression: ``',
    );
  });
});
