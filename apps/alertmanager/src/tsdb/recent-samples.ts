import type { SampleRun, SampleScratch } from './queryable';

/**
 * The newest samples kept uncompressed besides the chunks: enough for a 5-minute window at a
 * 15-second interval (rules' `rate(...[5m])`, the 5-minute lookback), so the queries rules run
 * every interval read them without decoding a chunk.
 */
export const RECENT_SAMPLES = 32;
/** The ring of a series that has taken no sample since it was created. */
const NO_RING = new Float64Array(0);

/**
 * A series' newest samples, a ring of `RECENT_SAMPLES`: timestamps in the first half, values in
 * the second (one array, so a query touches one block of memory per series), staleness as a bit
 * per slot. Read on the writing thread only. The array is allocated at the first sample it takes
 * (a restart creates every series without one).
 */
export class RecentSamples {
  private ring = NO_RING;
  private stale = 0;
  /** The slot the next sample takes. */
  private at = 0;
  /** Samples held. */
  private held = 0;
  /**
   * The ring always holds the series' newest samples, so every sample from its oldest one on;
   * after a read has refilled it, every sample from the read's start too (until a sample falls
   * out of the ring). Infinity: nothing known beyond the ring's oldest sample.
   */
  private coveredFrom = Infinity;

  get length(): number {
    return this.held;
  }

  /** Whether it holds every sample of the series from `mint` on. */
  covers(mint: number): boolean {
    return this.held > 0 && Math.min(this.oldest(), this.coveredFrom) <= mint;
  }

  /** Takes the series' newest sample. */
  take(t: number, v: number, isStale: boolean): void {
    if (this.ring === NO_RING) this.ring = new Float64Array(2 * RECENT_SAMPLES);
    const slot = this.at;
    this.ring[slot] = t;
    this.ring[RECENT_SAMPLES + slot] = isStale ? NaN : v;
    this.stale = isStale ? this.stale | (1 << slot) : this.stale & ~(1 << slot);
    this.at = (slot + 1) % RECENT_SAMPLES;
    if (this.held < RECENT_SAMPLES) this.held++;
    // A sample fell out: the ring covers from its oldest sample only.
    else this.coveredFrom = Infinity;
  }

  /**
   * Takes the newest samples of a read from `mint` that reached the series' newest sample
   * (`lastT`), unless the ring already knows more: after a restart the ring holds only what the
   * open chunk has, and the first such read fills it, so the next windows of the rules read
   * without decoding, as before the restart.
   */
  refill(run: SampleRun, mint: number, lastT: number): void {
    const n = run.t.length;
    if (n === 0 || run.t[n - 1] !== lastT || n < this.held) return;
    if (this.held === RECENT_SAMPLES && n > RECENT_SAMPLES) return;
    this.at = 0;
    this.held = 0;
    this.stale = 0;
    for (let i = Math.max(0, n - RECENT_SAMPLES); i < n; i++) {
      this.take(run.t[i], run.v[i], run.stale?.[i] === 1);
    }
    // The read held every sample from `mint` on: when the ring took them all, it covers `mint`.
    this.coveredFrom = n <= RECENT_SAMPLES ? mint : Infinity;
  }

  /** Forgets all but the newest `n` (the series keeps no more samples than that). */
  keepNewest(n: number): void {
    this.held = Math.min(this.held, n);
  }

  /** The samples it holds with `mint <= t <= maxt`. */
  read(mint: number, maxt: number, scratch?: SampleScratch): SampleRun {
    const n = this.held;
    const out = scratch
      ? scratch.reset(n)
      : {
          t: new Float64Array(n),
          v: new Float64Array(n),
          stale: undefined as Uint8Array | undefined,
          length: 0,
        };
    for (let k = 0; k < n; k++) {
      const slot = (this.at - n + k + RECENT_SAMPLES) % RECENT_SAMPLES;
      const t = this.ring[slot];
      if (t < mint) continue;
      if (t > maxt) break;
      const at = out.length++;
      out.t[at] = t;
      out.v[at] = this.ring[RECENT_SAMPLES + slot];
      if ((this.stale >>> slot) & 1) {
        out.stale ??= new Uint8Array(out.t.length);
        out.stale[at] = 1;
      }
    }
    const m = out.length;
    return { t: out.t.subarray(0, m), v: out.v.subarray(0, m), stale: out.stale?.subarray(0, m) };
  }

  private oldest(): number {
    return this.ring[(this.at - this.held + RECENT_SAMPLES) % RECENT_SAMPLES];
  }
}
