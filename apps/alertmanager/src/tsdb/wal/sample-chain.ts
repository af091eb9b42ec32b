/**
 * Each series' last value written to the current log file, as the bits that the next value is
 * XORed with (`XOR_SAMPLES` records). Writer and reader keep one each, both emptied when a log
 * file starts (`reset`), so a record decodes from the records before it in its own file alone.
 */
export class SampleChain {
  private hi = new Int32Array(1024);
  private lo = new Int32Array(1024);
  /** The reset a series' bits were set in; older ones read as zero. */
  private era = new Int32Array(1024);
  private current = 1;

  /** Forgets every value (a new log file). */
  reset(): void {
    this.current++;
  }

  has(id: number): boolean {
    return id < this.era.length && this.era[id] === this.current;
  }

  high(id: number): number {
    return this.has(id) ? this.hi[id] : 0;
  }

  low(id: number): number {
    return this.has(id) ? this.lo[id] : 0;
  }

  set(id: number, hi: number, lo: number): void {
    if (id >= this.era.length) this.grow(id + 1);
    this.hi[id] = hi;
    this.lo[id] = lo;
    this.era[id] = this.current;
  }

  private grow(size: number): void {
    const length = Math.max(size, this.era.length * 2);
    const widen = (old: Int32Array) => {
      const next = new Int32Array(length);
      next.set(old);
      return next;
    };
    this.hi = widen(this.hi);
    this.lo = widen(this.lo);
    this.era = widen(this.era);
  }
}
