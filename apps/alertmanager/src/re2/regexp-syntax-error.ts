/**
 * A regular expression that Go's RE2 parser would reject. The message copies Go's wording
 * (`error parsing regexp: <what>: \`<fragment>\``) so that errors read the same as upstream's.
 */
export class RegexpSyntaxError extends Error {
  constructor(
    readonly code: string,
    readonly fragment: string,
  ) {
    super(`error parsing regexp: ${code}: \`${fragment}\``);
    this.name = 'RegexpSyntaxError';
  }
}
