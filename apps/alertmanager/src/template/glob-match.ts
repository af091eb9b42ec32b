/** One element of a `filepath.Match` pattern. */
type GlobToken =
  | { readonly kind: 'star' }
  | { readonly kind: 'any' }
  | { readonly kind: 'char'; readonly ch: string }
  | { readonly kind: 'class'; readonly negated: boolean; readonly ranges: readonly number[] };

/** Go's `filepath.ErrBadPattern`. */
export class GlobSyntaxError extends Error {
  constructor() {
    super('syntax error in pattern');
    this.name = 'GlobSyntaxError';
  }
}

/**
 * A file name pattern of Go's `filepath.Match` (`*`, `?`, `[a-z]`, `[^...]`, `\` escapes), matched
 * by following every position of the pattern at once: time is at most the pattern's length times
 * the name's, where a translation to a backtracking `RegExp` can take exponential time.
 */
export class GlobPattern {
  private readonly tokens: readonly GlobToken[];

  /** Throws {@link GlobSyntaxError} for a malformed pattern, as `filepath.Glob` does before reading. */
  constructor(pattern: string) {
    this.tokens = parseGlob(pattern);
  }

  /** Whether the whole name matches; `*` and `?` never match `/`. */
  matches(name: string): boolean {
    const n = this.tokens.length;
    let states = this.closure(new Uint8Array(n + 1), 0);
    for (const ch of name) {
      const next = new Uint8Array(n + 1);
      let any = false;
      for (let i = 0; i < n; i++) {
        if (!states[i]) continue;
        const t = this.tokens[i];
        if (t.kind === 'star') {
          if (ch !== '/') next[i] = 1;
        } else if (step(t, ch)) {
          this.closure(next, i + 1);
        } else continue;
        any = true;
      }
      if (!any) return false;
      for (let i = 0; i <= n; i++) if (next[i]) this.closure(next, i);
      states = next;
    }
    return states[n] === 1;
  }

  /** Marks `i` and, through stars (which may match nothing), the positions after them. */
  private closure(states: Uint8Array, from: number): Uint8Array {
    let i = from;
    states[i] = 1;
    while (i < this.tokens.length && this.tokens[i].kind === 'star') states[++i] = 1;
    return states;
  }
}

function step(t: GlobToken, ch: string): boolean {
  if (t.kind === 'any') return ch !== '/';
  if (t.kind === 'char') return ch === t.ch;
  if (t.kind !== 'class') return false;
  const c = ch.codePointAt(0) as number;
  let inside = false;
  for (let r = 0; r < t.ranges.length; r += 2) {
    if (t.ranges[r] <= c && c <= t.ranges[r + 1]) inside = true;
  }
  return inside !== t.negated;
}

/** Reads a pattern as Go's `filepath.Match` does, refusing what it refuses. */
function parseGlob(pattern: string): GlobToken[] {
  const chars = [...pattern];
  const tokens: GlobToken[] = [];
  let i = 0;
  // One class character, escaped or not: Go's `getEsc`; `-`, `]` and the end are errors.
  const classChar = (): number => {
    let c = chars[i];
    if (c === undefined || c === '-' || c === ']') throw new GlobSyntaxError();
    if (c === '\\') c = chars[++i];
    if (c === undefined || chars[i + 1] === undefined) throw new GlobSyntaxError();
    i++;
    return c.codePointAt(0) as number;
  };
  while (i < chars.length) {
    const c = chars[i++];
    if (c === '*') tokens.push({ kind: 'star' });
    else if (c === '?') tokens.push({ kind: 'any' });
    else if (c === '\\') {
      if (i >= chars.length) throw new GlobSyntaxError();
      tokens.push({ kind: 'char', ch: chars[i++] });
    } else if (c === '[') {
      const negated = chars[i] === '^';
      if (negated) i++;
      const ranges: number[] = [];
      while (!(chars[i] === ']' && ranges.length > 0)) {
        const lo = classChar();
        const hi = chars[i] === '-' ? (i++, classChar()) : lo;
        ranges.push(lo, hi);
      }
      i++;
      tokens.push({ kind: 'class', negated, ranges });
    } else tokens.push({ kind: 'char', ch: c });
  }
  return tokens;
}
