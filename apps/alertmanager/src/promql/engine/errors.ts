/** A query that fails while evaluating; the message is upstream's. */
export class PromqlEvalError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PromqlEvalError';
  }
}

/** The query would hold more samples than `maxSamples` at once. */
export class TooManySamplesError extends PromqlEvalError {
  constructor(where: string) {
    super(`query processing would load too many samples into memory in ${where}`);
    this.name = 'TooManySamplesError';
  }
}

/** The query ran past its timeout. */
export class QueryTimeoutError extends PromqlEvalError {
  constructor(where: string) {
    super(`query timed out in ${where}`);
    this.name = 'QueryTimeoutError';
  }
}
