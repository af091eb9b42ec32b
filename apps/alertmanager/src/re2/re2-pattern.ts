/**
 * A compiled Go RE2 pattern, matched in time linear in the text. It is not a JavaScript
 * `RegExp` on purpose: that engine backtracks, and a user's pattern must never reach it.
 */
export interface Re2Pattern {
  /** The pattern as written. */
  readonly source: string;
  /** Whether the pattern matches somewhere in `text`, as Go's `MatchString`. */
  test(text: string): boolean;
  /** Whether the pattern matches the whole of `text`. */
  matches(text: string): boolean;
}
