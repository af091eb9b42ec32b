import { RE2JS } from 're2js';
import { GO_UNICODE_CLASS_NAMES } from './go-unicode-names';
import { scanPattern } from './pattern-scan';
import { checkRe2, compileAnchoredRe2, compileRe2 } from './re2-regexp';
import { RegexpSyntaxError } from './regexp-syntax-error';
import { syntaxCases } from './testdata/cases';

const verdict = (compile: () => unknown): string => {
  try {
    compile();
    return 'ok';
  } catch (error) {
    expect(error).toBeInstanceOf(RegexpSyntaxError);
    return (error as Error).message;
  }
};

describe("Go's verdicts and messages (testdata/syntax-cases.json)", () => {
  it.each(syntaxCases().map((c) => [c.label, c] as const))('%s', (_label, c) => {
    expect(verdict(() => compileAnchoredRe2(c.pattern))).toBe(c.anchored);
    expect(verdict(() => compileRe2(c.pattern))).toBe(c.unanchored);
    expect(verdict(() => checkRe2(c.pattern))).toBe(c.unanchored);
  });
});

describe('GO_UNICODE_CLASS_NAMES', () => {
  it("holds Any, Go's 36 categories and the 163 scripts of Unicode 15, all known to re2js", () => {
    expect(GO_UNICODE_CLASS_NAMES.size).toBe(1 + 36 + 163);
    for (const name of GO_UNICODE_CLASS_NAMES)
      expect(() => RE2JS.compile(`\\p{${name}}`)).not.toThrow();
  });
});

describe('bounded work', () => {
  it.each([
    // Go looks for `:]` again at every `[:` of a class that has none: quadratic in re2js too.
    [`[${'[:'.repeat(40_000)}`, 'missing closing ]'],
    // Syntax that compiles to nothing still takes re2js time to parse.
    ['(?i)'.repeat(30_000), 'expression too large'],
    ['('.repeat(200_000), 'expression too large'],
    ['\\pL{1000}'.repeat(1000), 'expression too large'],
  ])('%#: answers at once', (pattern, code) => {
    const started = performance.now();
    expect(() => compileRe2(pattern)).toThrow(code);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

describe('RegexpSyntaxError', () => {
  it('carries the code and the quoted text apart', () => {
    const error = (() => {
      try {
        compileAnchoredRe2('a(');
      } catch (e) {
        return e as RegexpSyntaxError;
      }
      return undefined;
    })();
    expect(error?.code).toBe('missing closing )');
    expect(error?.fragment).toBe('^(?:a()$');
  });
});

// Building blocks of random patterns: valid and broken syntax of every kind the scan reads.
const PIECES = [
  'a',
  'b',
  '.',
  '(',
  ')',
  '(?:',
  '(?i)',
  '(?P<n>',
  '(?<m>',
  '|',
  '*',
  '+',
  '?',
  '*?',
  '{2}',
  '{0}',
  '{1,3}',
  '{,2}',
  '{1001}',
  '{10}',
  '{100}',
  '[a-z]',
  '[^]a]',
  '[[:alpha:]]',
  '[\\d-]',
  '\\d',
  '\\pL',
  '\\p{Greek}',
  '\\Q(*\\E',
  '\\x41',
  '\\101',
  '\\.',
  '^',
  '$',
  '\\b',
  '[',
  ']',
  '\\',
  '{',
  '}',
  '-',
];

function randomPattern(seed: number): string {
  let x = seed;
  let pattern = '';
  const length = 1 + (seed % 12);
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    pattern += PIECES[x % PIECES.length];
  }
  return pattern;
}

describe('the scan agrees with re2js', () => {
  const patterns = Array.from({ length: 3000 }, (_, i) => randomPattern(i + 1));

  it('finds a count over the limits only where re2js refuses the pattern', () => {
    const flagged = patterns.filter((p) => scanPattern(p).badRepeatCount);
    for (const p of flagged) expect(() => RE2JS.compile(p)).toThrow();
    expect(flagged.length).toBeGreaterThan(50);
  });

  it('numbers and names the groups as re2js does', () => {
    let valid = 0;
    for (const p of patterns) {
      let re: RE2JS;
      try {
        re = RE2JS.compile(p);
      } catch {
        continue;
      }
      valid++;
      const names = scanPattern(p).groupNames;
      expect([p, names.length - 1]).toEqual([p, re.groupCount()]);
      const named = Object.fromEntries(
        names.flatMap((n, i) => (n === undefined ? [] : [[n, i] as const])).reverse(),
      );
      expect([p, named]).toEqual([p, re.namedGroups()]);
    }
    expect(valid).toBeGreaterThan(500);
  });

  it("estimates at least Go's program size of what re2js compiles", () => {
    for (const p of patterns) {
      let re: RE2JS;
      try {
        re = RE2JS.compile(p);
      } catch {
        continue;
      }
      expect([p, scanPattern(p).cost * 2 + 4 >= re.programSize()]).toEqual([p, true]);
    }
  });
});
