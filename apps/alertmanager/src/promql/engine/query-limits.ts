import { QueryTimeoutError, TooManySamplesError } from './errors';

/** The part of a query's context its limits read and keep. */
export interface QueryLimits {
  /** Points currently held, checked against `maxSamples`. */
  samples: number;
  readonly maxSamples: number;
  /** `Date.now()` after which the query is abandoned. */
  readonly deadline: number;
}

/**
 * Counts points a node's result holds towards the query's limit; a parent releases its operands'
 * points once it has built its own result, so the count follows what is in memory.
 */
export function holdPoints(limits: QueryLimits, points: number): void {
  limits.samples += points;
  if (limits.samples > limits.maxSamples) throw new TooManySamplesError('query execution');
}

export function releasePoints(limits: QueryLimits, points: number): void {
  limits.samples -= points;
}

export function checkDeadline(limits: QueryLimits): void {
  if (Date.now() > limits.deadline) throw new QueryTimeoutError('expression evaluation');
}
