/**
 * `max_over_time` and `min_over_time` over windows that only move forward (a range query's
 * steps): a queue of candidate indices, each sample entering and leaving it once, instead of a
 * scan of every window. Same answer as the scan: NaN only when every sample of the window is NaN,
 * otherwise the first of the equal extremes (so `-0` and `0` come out as the scan has them).
 */
export class SlidingExtreme {
  private readonly queue: Int32Array;
  private head = 0;
  private tail = 0;
  /** Samples before `next` have been offered to the queue. */
  private next = 0;
  private from = 0;

  constructor(
    private readonly f: Float64Array,
    private readonly max: boolean,
  ) {
    this.queue = new Int32Array(f.length);
  }

  /** The extreme of `f[from..to)`; `from` and `to` must not be below the last call's. */
  value(from: number, to: number): number {
    const { f, queue } = this;
    if (from < this.from) throw new Error('sliding window moved back');
    this.from = from;
    for (; this.next < to; this.next++) {
      const v = f[this.next];
      if (Number.isNaN(v)) continue;
      // A later sample ties with an earlier one: the earlier stays the answer.
      while (this.tail > this.head && this.beats(v, f[queue[this.tail - 1]])) this.tail--;
      queue[this.tail++] = this.next;
    }
    while (this.head < this.tail && queue[this.head] < from) this.head++;
    return this.head < this.tail ? f[queue[this.head]] : NaN;
  }

  /** Whether `v` replaces `best` as the extreme. */
  private beats(v: number, best: number): boolean {
    return this.max ? v > best : v < best;
  }
}
