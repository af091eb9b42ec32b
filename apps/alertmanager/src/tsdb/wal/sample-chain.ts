import { growArray, resizableArray } from '../memory/growable-buffer';

/**
 * Each series' last value written to the current log file, as the bits that the next value is
 * XORed with (`XOR_SAMPLES` records). Writer and reader keep one each, both emptied when a log
 * file starts (`reset`), so a record decodes from the records before it in its own file alone.
 */
export class SampleChain {
  /** Ids below this are kept in arrays (series ids are dense); others, rare, in a map. */
  static readonly ARRAY_IDS = 1 << 22;
  private readonly far = new Map<number, [hi: number, lo: number]>();
  private readonly hi = resizableArray(Int32Array, 1024, SampleChain.ARRAY_IDS);
  private readonly lo = resizableArray(Int32Array, 1024, SampleChain.ARRAY_IDS);
  /** The reset a series' bits were set in; older ones read as zero. */
  private readonly era = resizableArray(Int32Array, 1024, SampleChain.ARRAY_IDS);
  private current = 1;

  /** Forgets every value (a new log file). */
  reset(): void {
    this.current++;
    this.far.clear();
  }

  has(id: number): boolean {
    if (id >= SampleChain.ARRAY_IDS) return this.far.has(id);
    return id < this.era.length && this.era[id] === this.current;
  }

  high(id: number): number {
    if (id >= SampleChain.ARRAY_IDS) return this.far.get(id)?.[0] ?? 0;
    return this.has(id) ? this.hi[id] : 0;
  }

  low(id: number): number {
    if (id >= SampleChain.ARRAY_IDS) return this.far.get(id)?.[1] ?? 0;
    return this.has(id) ? this.lo[id] : 0;
  }

  set(id: number, hi: number, lo: number): void {
    if (id >= SampleChain.ARRAY_IDS) {
      this.far.set(id, [hi | 0, lo | 0]);
      return;
    }
    if (id >= this.era.length) this.grow(id + 1);
    this.hi[id] = hi;
    this.lo[id] = lo;
    this.era[id] = this.current;
  }

  /** Grows the arrays in place (see `resizableArray`). */
  private grow(size: number): void {
    for (const array of [this.hi, this.lo, this.era]) growArray(array, size);
  }
}
