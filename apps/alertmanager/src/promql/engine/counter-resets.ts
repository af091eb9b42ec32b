/**
 * Where a series' counter resets (a value below the one before it) are, learnt as windows move
 * forward along the series: each sample is looked at once, and a window with no reset in it
 * skips the scan that adds the reset values back.
 */
export class CounterResets {
  /** Samples before this index have been looked at. */
  private scannedTo = 1;
  /** The latest reset seen (-1: none). */
  private latest = -1;

  /** Whether a sample in `f(from..to)` is below the one before it. */
  anyWithin(f: Float64Array, from: number, to: number): boolean {
    for (let i = this.scannedTo; i < to; i++) if (f[i] < f[i - 1]) this.latest = i;
    if (to > this.scannedTo) this.scannedTo = to;
    return this.latest > from;
  }
}
