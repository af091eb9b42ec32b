/**
 * Character sets for the RE2 translator, kept as sorted lists of code-point ranges so that
 * negation, case folding and POSIX classes work the same way Go computes them.
 */
export type RuneRange = readonly [number, number];

const MAX_RUNE = 0x10ffff;

/** Go's Perl classes are ASCII-only (`\s` is not Unicode whitespace, unlike JavaScript's). */
const PERL_CLASSES: Record<string, RuneRange[]> = {
  d: [[0x30, 0x39]],
  s: [
    [0x09, 0x0a],
    [0x0c, 0x0d],
    [0x20, 0x20],
  ],
  w: [
    [0x30, 0x39],
    [0x41, 0x5a],
    [0x5f, 0x5f],
    [0x61, 0x7a],
  ],
};

const POSIX_CLASSES: Record<string, RuneRange[]> = {
  alnum: [
    [0x30, 0x39],
    [0x41, 0x5a],
    [0x61, 0x7a],
  ],
  alpha: [
    [0x41, 0x5a],
    [0x61, 0x7a],
  ],
  ascii: [[0x00, 0x7f]],
  blank: [
    [0x09, 0x09],
    [0x20, 0x20],
  ],
  cntrl: [
    [0x00, 0x1f],
    [0x7f, 0x7f],
  ],
  digit: [[0x30, 0x39]],
  graph: [[0x21, 0x7e]],
  lower: [[0x61, 0x7a]],
  print: [[0x20, 0x7e]],
  punct: [
    [0x21, 0x2f],
    [0x3a, 0x40],
    [0x5b, 0x60],
    [0x7b, 0x7e],
  ],
  space: [
    [0x09, 0x0d],
    [0x20, 0x20],
  ],
  upper: [[0x41, 0x5a]],
  word: [
    [0x30, 0x39],
    [0x41, 0x5a],
    [0x5f, 0x5f],
    [0x61, 0x7a],
  ],
  xdigit: [
    [0x30, 0x39],
    [0x41, 0x46],
    [0x61, 0x66],
  ],
};

/** Sorts and merges overlapping or touching ranges. */
export function normalizeRanges(ranges: readonly RuneRange[]): RuneRange[] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const out: [number, number][] = [];
  for (const [lo, hi] of sorted) {
    const last = out[out.length - 1];
    if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else out.push([lo, hi]);
  }
  return out;
}

/** The complement of a set of ranges within the whole Unicode range. */
export function negateRanges(ranges: readonly RuneRange[]): RuneRange[] {
  const out: RuneRange[] = [];
  let next = 0;
  for (const [lo, hi] of normalizeRanges(ranges)) {
    if (lo > next) out.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= MAX_RUNE) out.push([next, MAX_RUNE]);
  return out;
}

/** Ranges of a Perl class escape letter (`d`, `D`, `s`, `S`, `w`, `W`), or undefined. */
export function perlClass(letter: string): RuneRange[] | undefined {
  const base = PERL_CLASSES[letter.toLowerCase()];
  if (!base) return undefined;
  return letter === letter.toLowerCase() ? base : negateRanges(base);
}

/** Ranges of a POSIX class name such as `alpha` or `^alpha`, or undefined when unknown. */
export function posixClass(name: string): RuneRange[] | undefined {
  const negated = name.startsWith('^');
  const base = POSIX_CLASSES[negated ? name.slice(1) : name];
  if (!base) return undefined;
  return negated ? negateRanges(base) : base;
}

/** Characters that are equal to `c` ignoring case, including `c` itself (Go's simple folding). */
export function caseVariants(c: number): number[] {
  const ch = String.fromCodePoint(c);
  const variants = new Set<number>([c]);
  for (const v of [ch.toLowerCase(), ch.toUpperCase()]) {
    if ([...v].length === 1) variants.add(v.codePointAt(0) as number);
  }
  // Go folds these two Unicode letters onto ASCII letters, which toLowerCase() alone misses.
  const extra: Record<number, number[]> = { 0x6b: [0x212a], 0x73: [0x17f], 0x212a: [0x6b, 0x4b] };
  for (const v of [...variants]) for (const e of extra[v] ?? []) variants.add(e);
  if (variants.has(0x17f)) variants.add(0x73).add(0x53);
  return [...variants];
}

/** Adds the case variants of every character in the ranges (ranges are small in practice). */
export function foldRanges(ranges: readonly RuneRange[]): RuneRange[] {
  const out: RuneRange[] = [...ranges];
  for (const [lo, hi] of ranges) {
    // Only letters below U+1E944 have case variants; beyond that there is nothing to add.
    const end = Math.min(hi, 0x1e943);
    for (let c = Math.max(lo, 0x41); c <= end; c++) {
      for (const v of caseVariants(c)) if (v !== c) out.push([v, v]);
    }
  }
  return normalizeRanges(out);
}

/** JavaScript source (for use inside `[...]` with the `u` flag) for one code point. */
export function classChar(c: number): string {
  if (/[a-zA-Z0-9 ]/.test(String.fromCodePoint(c))) return String.fromCodePoint(c);
  return `\\u{${c.toString(16)}}`;
}

/** JavaScript source for a bracket expression matching exactly the given ranges. */
export function rangesToClass(ranges: readonly RuneRange[], extra = '', negated = false): string {
  const body = normalizeRanges(ranges)
    .map(([lo, hi]) => (lo === hi ? classChar(lo) : `${classChar(lo)}-${classChar(hi)}`))
    .join('');
  return `[${negated ? '^' : ''}${body}${extra}]`;
}
