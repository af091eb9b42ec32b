import { RE2JS } from 're2js';
import { fastAnchoredPattern, foldAscii } from './fast-pattern';
import { fastShape } from './fast-paths';

const FAST = [
  '',
  'foo',
  'foo|bar|baz',
  'a||b',
  '|',
  '(foo|bar)',
  '(?:foo|bar)',
  '()',
  '^foo$',
  '^(a|b)$',
  'a|b$',
  'a\\.b',
  'a\\|b',
  '\\(x\\)',
  'a b',
  'a\tb',
  'x\ny',
  'é|ü',
  '\\^\\$',
  '(?i)foo',
  '(?i)FoO|bar',
  '(?i)k',
  '(?i)s',
  '(?i)^abc$',
  '(?i)(ks|x)',
  '.*',
  '.+',
  '.*.*',
  'foo.*',
  'foo.+',
  '.*foo',
  '.+foo',
  '.*foo.*',
  '.+foo.+',
  '.*foo.+',
  '.+foo.*',
  '^',
  '$',
  '^$',
  '^.*foo$',
  '(?i).*kS.*',
  '(?i)k.+',
  '(?i).*\\.S',
  '.*a b.*',
  '(.*foo.*)',
  '(?:.+o)',
];

const NOT_FAST = [
  'a*',
  'a?',
  'a+',
  '[a]',
  '(a)(b)',
  '(a|(b))',
  '(?i)é',
  '(?s).*',
  '(?m)a',
  '(?i:a)',
  'a{2}',
  '{',
  '\\d',
  'a\\b',
  '\\x41',
  '.*a.*b',
  '(a|b).*',
  '.*a|b',
  'a.',
  '.a',
  '.',
  'a^b',
  '(a',
  'a)',
  'x.*\ny',
  '😀',
  'a\ud800',
  '(?P<n>a)',
  '(?i)(?i)a',
  'foo.*?',
];

// Inputs that tell the shapes apart: case, Go's non-ASCII folds (Kelvin sign, long s), newlines,
// surrogate pairs and a lone surrogate.
const INPUTS = [
  '',
  'foo',
  'FOO',
  'Foo',
  'bar',
  'BAZ',
  'foobar',
  'xfoo',
  'foox',
  'xfoox',
  'fo',
  'f\noo',
  'foo\n',
  '\nfoo',
  'a.b',
  'axb',
  'a|b',
  'a',
  'b',
  'ab',
  'a b',
  'a\tb',
  'x\ny',
  '(x)',
  '^$',
  'é',
  'ü',
  'É',
  'k',
  'K',
  '\u212a',
  's',
  'S',
  '\u017f',
  'ks',
  'KS',
  '\u212a\u017f',
  'kſ',
  'x\u212aſx',
  'abc',
  'ABC',
  'İbc',
  'a.S',
  'a.\u017f',
  '😀foo😀',
  '😀',
  'x\ud800',
  '\ud800foo',
  'o',
  'oo',
  '\n',
];

const ALPHABET = ['f', 'o', 'O', 'k', 'K', '\u212a', 's', '\u017f', '\n', '.', 'a', ' ', '😀'];

function* randomInputs(count: number): Generator<string> {
  let x = 7;
  for (let n = 0; n < count; n++) {
    let s = '';
    x = (x * 1103515245 + 12345) % 2147483648;
    for (let len = x % 7; len > 0; len--) {
      x = (x * 1103515245 + 12345) % 2147483648;
      s += ALPHABET[x % ALPHABET.length];
    }
    yield s;
  }
}

describe('fast paths give exactly the answers of re2js', () => {
  const inputs = [...INPUTS, ...randomInputs(400)];

  it.each(FAST)('%j', (pattern) => {
    const fast = fastAnchoredPattern(pattern);
    expect(fast).toBeDefined();
    const re2 = RE2JS.compile(`^(?:${pattern})$`);
    for (const s of inputs) {
      expect([s, fast?.matches(s)]).toEqual([s, re2.matches(s)]);
      expect([s, fast?.test(s)]).toEqual([s, re2.test(s)]);
    }
  });

  it.each(NOT_FAST)('%j takes re2js', (pattern) => {
    expect(fastShape(pattern)).toBeUndefined();
  });
});

describe('fastShape', () => {
  it.each([
    ['foo|Bar', { kind: 'set', fold: false, literals: ['foo', 'Bar'] }],
    ['(?i)^(foo|Bar)$', { kind: 'set', fold: true, literals: ['foo', 'bar'] }],
    ['a\\.b', { kind: 'set', fold: false, literals: ['a.b'] }],
    ['.*x.+', { kind: 'affix', fold: false, literal: 'x', left: 'star', right: 'plus' }],
    ['(?i)X.*', { kind: 'affix', fold: true, literal: 'x', left: 'none', right: 'star' }],
  ])('%j', (pattern, shape) => {
    expect(fastShape(pattern)).toEqual(shape);
  });
});

describe('foldAscii', () => {
  it('folds as Go does for ASCII letters and leaves other characters alone', () => {
    expect(foldAscii('AbC')).toBe('abc');
    expect(foldAscii('\u212a\u017fİÉ')).toBe('ksİÉ');
  });

  it("knows every character Go folds to an ASCII letter (re2js's tables agree)", () => {
    const anyAsciiLetter = RE2JS.compile('(?i)[a-z]');
    const folding: number[] = [];
    for (let c = 0x80; c <= 0x10ffff; c++) {
      if (c >= 0xd800 && c <= 0xdfff) continue;
      if (anyAsciiLetter.matches(String.fromCodePoint(c))) folding.push(c);
    }
    expect(folding).toEqual([0x17f, 0x212a]);
  });
});
