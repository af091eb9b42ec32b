/**
 * A relabeling rule that does not decode or validate. The message is upstream's (for one rule
 * alone), prefixed with where the rule is when the caller said so.
 */
export class RelabelConfigError extends Error {
  constructor(
    /** Upstream's message, without the place. */
    readonly reason: string,
    /** Where the rule is (`file:line: path`), when known. */
    readonly where?: string,
  ) {
    super(where ? `${where}: ${reason}` : reason);
    this.name = 'RelabelConfigError';
  }
}
