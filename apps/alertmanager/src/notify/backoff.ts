/** Settings of {@link ExponentialBackoff}; the defaults are cenkalti/backoff's, as upstream. */
export interface BackoffOptions {
  /** Milliseconds. */
  initialInterval: number;
  multiplier: number;
  /** The wait is drawn uniformly from `interval * (1 ± randomizationFactor)`. */
  randomizationFactor: number;
  /** Milliseconds. */
  maxInterval: number;
}

/** Upstream's retry schedule: 500ms, ×1.5 per attempt, ±50% jitter, at most 60s. */
export const DEFAULT_BACKOFF: BackoffOptions = {
  initialInterval: 500,
  multiplier: 1.5,
  randomizationFactor: 0.5,
  maxInterval: 60_000,
};

/** Exponential backoff with jitter; randomness is an input so tests can fix it. */
export class ExponentialBackoff {
  private current: number;

  constructor(
    private readonly random: () => number = Math.random,
    private readonly options: BackoffOptions = DEFAULT_BACKOFF,
  ) {
    this.current = options.initialInterval;
  }

  /** The wait before the next attempt, in milliseconds. */
  next(): number {
    const delta = this.options.randomizationFactor * this.current;
    const wait = this.current - delta + this.random() * 2 * delta;
    const { multiplier, maxInterval } = this.options;
    this.current =
      this.current >= maxInterval / multiplier ? maxInterval : this.current * multiplier;
    return Math.round(wait);
  }
}
