import { PAGE_MASK, PagedColumns } from '../memory/paged-columns';

/** One page of the chain: each series' bits, and the reset they were set in. */
interface ChainPage {
  readonly hi: Int32Array;
  readonly lo: Int32Array;
  /** The reset a series' bits were set in; older ones read as zero. */
  readonly era: Int32Array;
}

/**
 * Each series' last value written to the current log file, as the bits that the next value is
 * XORed with (`XOR_SAMPLES` records). Writer and reader keep one each, both emptied when a log
 * file starts (`reset`), so a record decodes from the records before it in its own file alone.
 */
export class SampleChain {
  /** Ids below this are kept in arrays (series ids are dense); others, rare, in a map. */
  static readonly ARRAY_IDS = 1 << 22;
  private readonly far = new Map<number, [hi: number, lo: number]>();
  private readonly pages = new PagedColumns<ChainPage>((n) => ({
    hi: new Int32Array(n),
    lo: new Int32Array(n),
    era: new Int32Array(n),
  }));
  private current = 1;

  /** Forgets every value (a new log file). */
  reset(): void {
    this.current++;
    this.far.clear();
  }

  has(id: number): boolean {
    if (id >= SampleChain.ARRAY_IDS) return this.far.has(id);
    return this.pages.has(id) && this.pages.pageOf(id).era[id & PAGE_MASK] === this.current;
  }

  high(id: number): number {
    if (id >= SampleChain.ARRAY_IDS) return this.far.get(id)?.[0] ?? 0;
    return this.has(id) ? this.pages.pageOf(id).hi[id & PAGE_MASK] : 0;
  }

  low(id: number): number {
    if (id >= SampleChain.ARRAY_IDS) return this.far.get(id)?.[1] ?? 0;
    return this.has(id) ? this.pages.pageOf(id).lo[id & PAGE_MASK] : 0;
  }

  set(id: number, hi: number, lo: number): void {
    if (id >= SampleChain.ARRAY_IDS) {
      this.far.set(id, [hi | 0, lo | 0]);
      return;
    }
    const page = this.pages.pageOf(id);
    const i = id & PAGE_MASK;
    page.hi[i] = hi;
    page.lo[i] = lo;
    page.era[i] = this.current;
  }
}
