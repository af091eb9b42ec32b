import { PAGE_MASK, PagedColumns } from './paged-columns';

/** One page of series states: the columns, 4,096 series each. */
export interface SeriesStatePage {
  /** The newest sample's time and value, and whether it is a staleness marker. */
  readonly lastT: Float64Array;
  readonly lastV: Float64Array;
  readonly lastStale: Uint8Array;
  /** The newest time of the series' cold chunks, or a time no earlier; -Infinity for none. */
  readonly coldMaxT: Float64Array;
  /** The open chunk in `OpenChunks`, -1 for none. */
  readonly head: Int32Array;
  /** Samples in the chunks of the chain. */
  readonly count: Int32Array;
  /** The oldest chunk of the chain, -1 for none. */
  readonly oldest: Int32Array;
  /** The ring of recent samples, -1 for none. */
  readonly ring: Int32Array;
}

/**
 * The writer's state of each series (`MemorySeries`), in typed arrays by series id rather than
 * fields of an object: 41 bytes a series where an object with three doubles took about 150 (its
 * fields, and each double boxed in a heap number of its own that every append replaced). A
 * series' state is `at(id)`'s columns at `slot(id)`. The writer's thread alone reads them;
 * readers go by the chunk table.
 */
export class SeriesStates {
  private readonly pages = new PagedColumns<SeriesStatePage>((n) => ({
    lastT: new Float64Array(n),
    lastV: new Float64Array(n),
    lastStale: new Uint8Array(n),
    coldMaxT: new Float64Array(n),
    head: new Int32Array(n),
    count: new Int32Array(n),
    oldest: new Int32Array(n),
    ring: new Int32Array(n),
  }));

  /** The page of series `id`'s state. */
  at(id: number): SeriesStatePage {
    return this.pages.pageOf(id);
  }

  /** Sets series `id` to a series with no samples. */
  reset(id: number): void {
    const p = this.pages.pageOf(id);
    const i = slot(id);
    p.lastT[i] = -Infinity;
    p.lastV[i] = NaN;
    p.lastStale[i] = 0;
    p.coldMaxT[i] = -Infinity;
    p.head[i] = -1;
    p.count[i] = 0;
    p.oldest[i] = -1;
    p.ring[i] = -1;
  }
}

/** Where series `id`'s state is in its page's columns. */
export function slot(id: number): number {
  return id & PAGE_MASK;
}
