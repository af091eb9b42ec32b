import { foldRanges, perlClass, posixClass, rangesToClass, type RuneRange } from './re2-char-class';
import { decodeEscape } from './re2-escape';
import { RegexpSyntaxError } from './regexp-syntax-error';

/** A translated piece of pattern and the index in the source just after it. */
export interface Translated {
  readonly js: string;
  readonly end: number;
}

/**
 * Translates a Unicode class escape (`\pL`, `\p{Greek}`, `\P{^Lu}`) at `start` to JavaScript
 * `\p{...}` syntax (the translated pattern always uses the `u` flag).
 */
export function translateUnicodeClass(src: string, start: number): Translated {
  let negated = src[start + 1] === 'P';
  let name: string;
  let end: number;
  if (src[start + 2] === '{') {
    const close = src.indexOf('}', start);
    if (close < 0) throw new RegexpSyntaxError('invalid character class range', src.slice(start));
    name = src.slice(start + 3, close);
    end = close + 1;
  } else {
    name = String.fromCodePoint(src.codePointAt(start + 2) ?? 0);
    end = start + 2 + name.length;
  }
  if (name.startsWith('^')) {
    negated = !negated;
    name = name.slice(1);
  }
  const js = unicodeProperty(name, negated);
  if (!js) throw new RegexpSyntaxError('invalid character class range', src.slice(start, end));
  return { js, end };
}

function unicodeProperty(name: string, negated: boolean): string | undefined {
  const p = negated ? 'P' : 'p';
  const candidates = [`\\${p}{${name}}`, `\\${p}{Script=${name}}`];
  return candidates.find((candidate) => {
    try {
      new RegExp(candidate, 'u');
      return /^[A-Za-z_]+$/.test(name);
    } catch {
      return false;
    }
  });
}

/**
 * Translates the bracket expression starting at `start` (`[a-z]`, `[^\d_]`, `[[:alpha:]]`,
 * `[\p{Greek}]`), folding case when `foldCase` is set. Errors carry Go's texts and fragments.
 */
export function translateClass(src: string, start: number, foldCase: boolean): Translated {
  let i = start + 1;
  const negated = src[i] === '^';
  if (negated) i++;
  const ranges: RuneRange[] = [];
  let unicodeItems = '';
  let first = true;
  const missing = (): never => {
    throw new RegexpSyntaxError('missing closing ]', src.slice(start));
  };
  while (first || src[i] !== ']') {
    if (i >= src.length) missing();
    first = false;
    if (src.startsWith('[:', i)) {
      const close = src.indexOf(':]', i + 2);
      if (close >= 0) {
        const name = src.slice(i, close + 2);
        const named = posixClass(name.slice(2, -2));
        if (!named) throw new RegexpSyntaxError('invalid character class range', name);
        ranges.push(...named);
        i = close + 2;
        continue;
      }
    }
    if (src[i] === '\\' && (src[i + 1] === 'p' || src[i + 1] === 'P')) {
      const unicode = translateUnicodeClass(src, i);
      unicodeItems += unicode.js;
      i = unicode.end;
      continue;
    }
    const perl = src[i] === '\\' ? perlClass(src[i + 1] ?? '') : undefined;
    if (perl) {
      ranges.push(...perl);
      i += 2;
      continue;
    }
    const rangeStart = i;
    const lo = classChar(src, i, missing);
    let hi = lo;
    i = lo.end;
    if (src[i] === '-' && i + 1 < src.length && src[i + 1] !== ']') {
      hi = classChar(src, i + 1, missing);
      i = hi.end;
      if (hi.codePoint < lo.codePoint) {
        throw new RegexpSyntaxError('invalid character class range', src.slice(rangeStart, i));
      }
    }
    ranges.push([lo.codePoint, hi.codePoint]);
  }
  const set = foldCase ? foldRanges(ranges) : ranges;
  return { js: rangesToClass(set, unicodeItems, negated), end: i + 1 };
}

function classChar(src: string, i: number, missing: () => never) {
  if (i >= src.length) missing();
  if (src[i] === '\\') return decodeEscape(src, i);
  const codePoint = src.codePointAt(i) as number;
  return { codePoint, end: i + String.fromCodePoint(codePoint).length };
}
