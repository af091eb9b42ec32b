import type { Labels } from './labels';

/** One label matcher as the store needs it: which label, and whether a value matches. */
export interface SeriesMatcher {
  readonly name: string;
  readonly type: '=' | '!=' | '=~' | '!~';
  readonly value: string;
  readonly matches: (value: string) => boolean;
}

/**
 * A series' samples within a time range, oldest first: timestamps (ms) and values in parallel,
 * `stale[i]` set where the sample is a staleness marker (its value is then meaningless).
 */
export interface SampleRun {
  readonly t: Float64Array;
  readonly v: Float64Array;
  readonly stale: Uint8Array | undefined;
}

export interface SelectedSeries {
  readonly labels: Labels;
  /** Samples with `mint <= t <= maxt`. */
  samples(mint: number, maxt: number): SampleRun;
}

/** Reads series for one query: the seam between the PromQL engine and where samples live. */
export interface Querier {
  /** Series matching every matcher, sorted by labels. */
  select(matchers: readonly SeriesMatcher[]): SelectedSeries[];
}

export interface Queryable {
  /** A reader for samples between `mint` and `maxt` (ms, inclusive). */
  querier(mint: number, maxt: number): Querier;
}
