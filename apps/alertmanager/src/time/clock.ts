/** The source of "now" for all time-dependent logic, so tests can drive time by hand. */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

/** Injection token for {@link Clock}. */
export const Clock = Symbol('Clock');

/** The wall clock. */
export const systemClock: Clock = { now: () => Date.now() };
