import { fastShape, type FastShape } from './fast-paths';
import type { Re2Pattern } from './re2-pattern';

/**
 * A fully anchored pattern of a {@link FastShape}, matched with string operations that give
 * exactly RE2's answers (a table test compares them with re2js), or undefined for other patterns.
 */
export function fastAnchoredPattern(source: string): Re2Pattern | undefined {
  const shape = fastShape(source);
  if (!shape) return undefined;
  const matches = shape.kind === 'set' ? setMatcher(shape) : affixMatcher(shape);
  return { source, matches, test: matches };
}

function setMatcher(shape: Extract<FastShape, { kind: 'set' }>): (text: string) => boolean {
  const { fold, literals } = shape;
  if (literals.length === 1) {
    const [only] = literals;
    return fold ? (text) => foldAscii(text) === only : (text) => text === only;
  }
  const set = new Set(literals);
  return fold ? (text) => set.has(foldAscii(text)) : (text) => set.has(text);
}

function affixMatcher(shape: Extract<FastShape, { kind: 'affix' }>): (text: string) => boolean {
  const { fold, literal, left, right } = shape;
  // `.+` needs at least one character; no surrogate is in the literal, so an occurrence never
  // splits a pair and UTF-16 lengths count characters well enough to tell empty from not.
  const leftMin = left === 'plus' ? 1 : 0;
  const rightMin = right === 'plus' ? 1 : 0;
  return (text) => {
    // `.` does not match a newline and the literal holds none, so no newline can be anywhere.
    if (text.includes('\n')) return false;
    const s = fold ? foldAscii(text) : text;
    const spare = s.length - literal.length;
    if (left === 'none') return s.startsWith(literal) && spare >= rightMin;
    if (right === 'none') return s.endsWith(literal) && spare >= leftMin;
    const at = s.indexOf(literal, leftMin);
    return at >= leftMin && at + literal.length <= s.length - rightMin;
  };
}

/**
 * Go's simple case folding, as far as ASCII literals see it: ASCII letters fold to lower case,
 * the Kelvin sign to `k` and the long s to `s` (the only non-ASCII characters whose fold orbit
 * holds an ASCII letter); any other character stays itself and can never equal an ASCII one.
 */
export function foldAscii(text: string): string {
  if (!/[^\x00-\x7f]/.test(text)) return text.toLowerCase();
  return text.replace(/[A-Z\u017f\u212a]/g, (c) =>
    c === '\u017f' ? 's' : c === '\u212a' ? 'k' : c.toLowerCase(),
  );
}
