import { RegexpSyntaxError } from './regexp-syntax-error';

/** A decoded single-character escape: the code point and the index just after the escape. */
export interface DecodedEscape {
  readonly codePoint: number;
  readonly end: number;
}

const SIMPLE_ESCAPES: Record<string, number> = { a: 7, f: 12, n: 10, r: 13, t: 9, v: 11 };

const isOctal = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '7';
const isHex = (c: string | undefined): boolean => c !== undefined && /^[0-9a-fA-F]$/.test(c);

/**
 * Decodes the RE2 escape starting with the backslash at `start`: punctuation escapes, C escapes,
 * octal (`\0`, `\012`) and hex (`\x41`, `\x{1F600}`). Back-references and unknown letters are
 * errors, as in Go.
 */
export function decodeEscape(src: string, start: number): DecodedEscape {
  let i = start + 1;
  if (i >= src.length) throw new RegexpSyntaxError('trailing backslash at end of expression', '');
  const c = String.fromCodePoint(src.codePointAt(i) as number);
  i += c.length;
  const fail = (): never => {
    throw new RegexpSyntaxError('invalid escape sequence', src.slice(start, i));
  };
  const code = c.codePointAt(0) as number;
  if (code < 0x80 && !/[0-9a-zA-Z]/.test(c)) return { codePoint: code, end: i };
  if (c in SIMPLE_ESCAPES) return { codePoint: SIMPLE_ESCAPES[c], end: i };
  if (isOctal(c) && (c === '0' || isOctal(src[i]))) {
    let value = Number(c);
    for (let n = 1; n < 3 && isOctal(src[i]); n++, i++) value = value * 8 + Number(src[i]);
    return { codePoint: value, end: i };
  }
  if (c === 'x') return decodeHex(src, start, i);
  return fail();
}

function decodeHex(src: string, start: number, from: number): DecodedEscape {
  let i = from;
  if (src[i] === '{') {
    const close = src.indexOf('}', i);
    const digits = close < 0 ? '' : src.slice(i + 1, close);
    if (!/^[0-9a-fA-F]+$/.test(digits) || parseInt(digits, 16) > 0x10ffff) {
      throw new RegexpSyntaxError(
        'invalid escape sequence',
        src.slice(start, close < 0 ? src.length : close + 1),
      );
    }
    return { codePoint: parseInt(digits, 16), end: close + 1 };
  }
  if (!isHex(src[i]) || !isHex(src[i + 1])) {
    i = Math.min(i + 2, src.length);
    throw new RegexpSyntaxError('invalid escape sequence', src.slice(start, i));
  }
  return { codePoint: parseInt(src.slice(i, i + 2), 16), end: i + 2 };
}
