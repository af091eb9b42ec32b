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
  /**
   * Samples with `mint <= t <= maxt`. With `scratch`, they are decoded into its arrays (grown as
   * needed) and the run is a view on them, valid until the scratch is used again.
   */
  samples(mint: number, maxt: number, scratch?: SampleScratch): SampleRun;
  /** Whether it has a sample with `mint <= t <= maxt` (decoding only where chunks leave it open). */
  hasSamples(mint: number, maxt: number): boolean;
}

/** Reusable arrays to read samples into, so a query does not allocate per series. */
export class SampleScratch {
  t = new Float64Array(256);
  v = new Float64Array(256);
  stale: Uint8Array | undefined = undefined;
  length = 0;

  /** Empties it, with room for at least `n` samples. */
  reset(n: number): this {
    if (this.t.length < n) {
      const size = Math.max(n, this.t.length * 2);
      this.t = new Float64Array(size);
      this.v = new Float64Array(size);
    }
    this.stale?.fill(0, 0, Math.min(this.stale.length, n));
    if (this.stale && this.stale.length < this.t.length) this.stale = undefined;
    this.length = 0;
    return this;
  }
}

/** Reads series for one query: the seam between the PromQL engine and where samples live. */
export interface Querier {
  /** Series matching every matcher, in no particular order. */
  select(matchers: readonly SeriesMatcher[]): SelectedSeries[];
}

export interface Queryable {
  /** A reader for samples between `mint` and `maxt` (ms, inclusive). */
  querier(mint: number, maxt: number): Querier;
}
