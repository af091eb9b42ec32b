/**
 * A change made to a pattern before re2js sees it, with the same meaning to Go: `text` replaces
 * the source from `start` to `end`.
 */
export interface PatternEdit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/** The pattern with the edits (sorted, not overlapping) applied. */
export function applyEdits(source: string, edits: readonly PatternEdit[]): string {
  let out = '';
  let from = 0;
  for (const { start, end, text } of edits) {
    out += source.slice(from, start) + text;
    from = end;
  }
  return out + source.slice(from);
}

/**
 * The source of what an error quotes from the edited pattern. Go quotes either a short piece
 * around the error, which no edit touches, or everything from some point to the end (the whole
 * pattern, an unterminated class): a suffix of the edited pattern maps back to the source's.
 */
export function sourceQuote(
  quoted: string,
  source: string,
  edited: string,
  edits: readonly PatternEdit[],
): string {
  if (edits.length === 0 || quoted === '' || !edited.endsWith(quoted)) return quoted;
  const index = edited.length - quoted.length;
  let shift = 0;
  for (const { start, end, text } of edits) {
    // Past an edit, the source is `end - start - text.length` longer than the edited pattern.
    if (start - shift >= index) break;
    shift += end - start - text.length;
  }
  return source.slice(index + shift);
}
