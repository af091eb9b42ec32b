import type { Labels } from './labels';
import type { SampleRun } from './queryable';

const INITIAL_CAPACITY = 16;

/** Why a sample was refused, in upstream's words. */
export class SampleRejectedError extends Error {}

/**
 * One series' samples in growable typed arrays (timestamps and values as float64, staleness as
 * a byte per sample once the series has a marker): no object per sample.
 */
export class MemorySeries {
  private t = new Float64Array(INITIAL_CAPACITY);
  private v = new Float64Array(INITIAL_CAPACITY);
  private stale: Uint8Array | undefined;
  private count = 0;

  constructor(
    readonly id: number,
    readonly labels: Labels,
  ) {}

  get length(): number {
    return this.count;
  }

  get lastTimestamp(): number {
    return this.count === 0 ? -Infinity : this.t[this.count - 1];
  }

  /** Appends a sample at or after the last one; a repeat of the last sample is ignored. */
  append(t: number, v: number, isStale = false): void {
    const last = this.count - 1;
    if (last >= 0 && t <= this.t[last]) {
      if (t < this.t[last]) throw new SampleRejectedError('out of order sample');
      const same =
        (this.stale?.[last] === 1) === isStale &&
        (isStale || Object.is(this.v[last], v) || (Number.isNaN(v) && Number.isNaN(this.v[last])));
      if (same) return;
      throw new SampleRejectedError('duplicate sample for timestamp');
    }
    if (this.count === this.t.length) this.grow();
    this.t[this.count] = t;
    this.v[this.count] = isStale ? NaN : v;
    if (isStale) {
      this.stale ??= new Uint8Array(this.t.length);
      this.stale[this.count] = 1;
    }
    this.count++;
  }

  /** Samples with `mint <= t <= maxt`, as views on the series' arrays (no copy). */
  samples(mint: number, maxt: number): SampleRun {
    const from = this.lowerBound(mint);
    let to = this.lowerBound(maxt);
    if (to < this.count && this.t[to] === maxt) to++;
    return {
      t: this.t.subarray(from, to),
      v: this.v.subarray(from, to),
      stale: this.stale?.subarray(from, to),
    };
  }

  /** Drops samples before `mint`; returns how many remain. */
  truncateBefore(mint: number): number {
    const from = this.lowerBound(mint);
    if (from === 0) return this.count;
    this.t.copyWithin(0, from, this.count);
    this.v.copyWithin(0, from, this.count);
    this.stale?.copyWithin(0, from, this.count);
    this.count -= from;
    return this.count;
  }

  /** Bytes held for samples (the arrays' used part). */
  get sampleBytes(): number {
    return this.count * (this.stale ? 17 : 16);
  }

  /** Index of the first sample with `t >= ts`. */
  private lowerBound(ts: number): number {
    let lo = 0;
    let hi = this.count;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.t[mid] < ts) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private grow(): void {
    const size = this.t.length * 2;
    const t = new Float64Array(size);
    t.set(this.t);
    const v = new Float64Array(size);
    v.set(this.v);
    this.t = t;
    this.v = v;
    if (this.stale) {
      const stale = new Uint8Array(size);
      stale.set(this.stale);
      this.stale = stale;
    }
  }
}
