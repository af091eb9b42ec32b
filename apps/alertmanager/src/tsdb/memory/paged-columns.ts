/** Entries a page holds (a power of two): an entry `i` is `i & PAGE_MASK` of page `i >>> PAGE_BITS`. */
export const PAGE_BITS = 12;
export const PAGE_MASK = (1 << PAGE_BITS) - 1;

/** Typed arrays of one page, by column name. */
export type Columns<C> = {
  readonly [K in keyof C]: Float64Array | Int32Array | Uint32Array | Uint8Array;
};

/**
 * Columns of typed arrays by entry (series id, open chunk), in pages of 4,096 entries added as
 * entries grow and never moved or freed: arrays that grew by doubling into new arrays left each
 * outgrown one to glibc's allocator, whose heap kept the pages once they were freed (47 to 59 MiB
 * while scraping 100,000 series; see BENCHMARKS.md). Plain typed arrays, as fast to index as one
 * (Node 20's resizable buffers, which grow in place, index two to four times slower).
 */
export class PagedColumns<C extends Columns<C>> {
  private readonly pages: C[] = [];

  /** `newPage(size)`: a page's columns of `size` entries each, as a new entry starts. */
  constructor(private readonly newPage: (size: number) => C) {}

  /** The page of entry `i`, added (with every page before it) when there is none yet. */
  pageOf(i: number): C {
    const p = i >>> PAGE_BITS;
    return p < this.pages.length ? this.pages[p] : this.add(p);
  }

  /** Whether entry `i` has a page. */
  has(i: number): boolean {
    return i >>> PAGE_BITS < this.pages.length;
  }

  private add(p: number): C {
    while (this.pages.length <= p) this.pages.push(this.newPage(PAGE_MASK + 1));
    return this.pages[p];
  }
}
