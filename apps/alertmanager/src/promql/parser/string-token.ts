import { goRuneU } from './go-rune';

/** A string token as upstream's lexer reads it: where it ends, and its problem if it has one. */
export interface StringToken {
  /** Just past the closing quote, or where the lexer stopped. */
  readonly end: number;
  /** What upstream's lexer reports, at the token's start (`unterminated quoted string`). */
  readonly problem?: string;
}

class Refused extends Error {}

/**
 * Reads the string token whose opening quote is at `at`: `"..."` and `'...'` with Go's escapes
 * (checked as upstream's `lexEscape` checks them), or a raw `` `...` ``.
 */
export function scanStringToken(input: string, at: number): StringToken {
  const quote = input[at];
  let pos = at + 1;
  const next = (): string => {
    const code = input.codePointAt(pos);
    const r = code === undefined ? '' : String.fromCodePoint(code);
    pos += r.length;
    return r;
  };
  const stop = (problem: string): StringToken => ({ end: pos, problem });
  try {
    for (;;) {
      const r = next();
      // Go decodes the query as UTF-8: a byte that is not UTF-8 (here already U+FFFD) and an
      // encoded U+FFFD both read as utf8.RuneError, which a string may not hold.
      if (r === '\uFFFD') return stop('invalid UTF-8 rune');
      if (r === quote) return { end: pos };
      if (quote === '`') {
        if (r === '') return stop('unterminated raw string');
        continue;
      }
      if (r === '' || r === '\n') return stop('unterminated quoted string');
      if (r === '\\') escape(next, quote);
    }
  } catch (error) {
    if (error instanceof Refused) return stop(error.message);
    throw error;
  }
}

/** Upstream's `lexEscape`, after the backslash. */
function escape(next: () => string, quote: string): void {
  let c = next();
  let n: number;
  let base: number;
  let max: number;
  if (('abfnrtv\\'.includes(c) && c !== '') || c === quote) return;
  if (c >= '0' && c <= '7') [n, base, max] = [3, 8, 255];
  else if (c === 'x') [c, n, base, max] = [next(), 2, 16, 255];
  else if (c === 'u') [c, n, base, max] = [next(), 4, 16, 0x10ffff];
  else if (c === 'U') [c, n, base, max] = [next(), 8, 16, 0x10ffff];
  else if (c === '') throw new Refused('escape sequence not terminated');
  else throw new Refused(`unknown escape sequence ${goRuneU(c)}`);
  let x = 0;
  while (n > 0) {
    const d = /^[0-9a-fA-F]$/.test(c) ? parseInt(c, 16) : 16;
    if (d >= base) {
      if (c === '') throw new Refused('escape sequence not terminated');
      throw new Refused(`illegal character ${goRuneU(c)} in escape sequence`);
    }
    x = x * base + d;
    n--;
    if (n > 0) c = next();
  }
  if (x > max || (x >= 0xd800 && x < 0xe000)) {
    throw new Refused('escape sequence is an invalid Unicode code point');
  }
}
