import type { GoOnlyErrors } from './go-only-errors';
import { GO_UNICODE_CLASS_NAMES } from './go-unicode-names';

/** Whether the UTF-16 unit at `i` is half of a surrogate pair that is not there. */
export function isLoneSurrogateAt(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  if (c >= 0xd800 && c <= 0xdbff) {
    const next = s.charCodeAt(i + 1);
    return !(next >= 0xdc00 && next <= 0xdfff);
  }
  if (c >= 0xdc00 && c <= 0xdfff) {
    const prev = s.charCodeAt(i - 1);
    return !(prev >= 0xd800 && prev <= 0xdbff);
  }
  return false;
}

/** The first lone surrogate of `s`, or -1; JavaScript's counterpart of Go's invalid UTF-8. */
export function loneSurrogateIndex(s: string): number {
  for (let i = 0; i < s.length; i++) if (isLoneSurrogateAt(s, i)) return i;
  return -1;
}

/** UTF-16 length of the code point at `i` (0 past the end). */
export function codePointLength(s: string, i: number): number {
  if (i >= s.length) return 0;
  return (s.codePointAt(i) as number) > 0xffff ? 2 : 1;
}

/**
 * The index just after the escape whose backslash is at `i`: `\x41`, `\x{1F600}`, octal
 * `\012`, or a backslash and one character. Malformed escapes end somewhere harmless; re2js
 * reports them when it parses the pattern.
 */
export function escapeEnd(src: string, i: number): number {
  const c = src[i + 1];
  if (c === undefined) return i + 1;
  if (c === 'x') {
    if (src[i + 2] !== '{') return Math.min(i + 4, src.length);
    const close = src.indexOf('}', i + 3);
    return close < 0 ? src.length : close + 1;
  }
  if (c >= '0' && c <= '7') {
    let j = i + 2;
    while (j < i + 4 && src[j] >= '0' && src[j] <= '7') j++;
    return j;
  }
  return i + 1 + codePointLength(src, i + 1);
}

/**
 * A Unicode class escape (`\pL`, `\p{Greek}`, `\P{^Lu}`) whose backslash is at `i`, read as
 * Go's `parseUnicodeClass` reads it. A name Go does not know, or a lone surrogate in it, is
 * recorded in `errors`; returns the index just after the escape.
 */
export function unicodeClassAt(src: string, i: number, errors: GoOnlyErrors): number {
  const at = i + 2;
  if (at >= src.length) return at;
  if (src[at] !== '{') {
    if (isLoneSurrogateAt(src, at)) errors.invalidUtf8(i, src.slice(at));
    const end = at + codePointLength(src, at);
    checkName(src.slice(at, end), src.slice(i, end), i, errors);
    return end;
  }
  const close = src.indexOf('}', i);
  if (close < 0) {
    if (loneSurrogateIndex(src.slice(i)) >= 0) errors.invalidUtf8(i, src.slice(i));
    return src.length;
  }
  const name = src.slice(i + 3, close);
  if (loneSurrogateIndex(name) >= 0) errors.invalidUtf8(i, name);
  else checkName(name, src.slice(i, close + 1), i, errors);
  return close + 1;
}

function checkName(name: string, sequence: string, at: number, errors: GoOnlyErrors): void {
  const bare = name.startsWith('^') ? name.slice(1) : name;
  if (!GO_UNICODE_CLASS_NAMES.has(bare)) errors.badClassName(at, sequence);
}

/**
 * The weight of one character class: one instruction, plus one per hundred ranges it holds.
 * re2js's compile time and memory grow with the ranges (a `\pL` holds about 700), Go's do not.
 */
export class ClassCost {
  items = 0;
  private ranges = 0;

  /** A character or a range `a-z`. */
  addRange(): this {
    this.items++;
    this.ranges++;
    return this;
  }

  /** `\d`, `\s`, `\w`, their negations, or a POSIX class like `[:alpha:]`. */
  addPerl(): this {
    this.items++;
    this.ranges += 4;
    return this;
  }

  /** A Unicode class, as large as the largest Unicode table. */
  addUnicode(): this {
    this.items++;
    this.ranges += 750;
    return this;
  }

  get cost(): number {
    return 1 + Math.floor(this.ranges / 100);
  }
}
