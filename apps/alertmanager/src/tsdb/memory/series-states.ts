import { growArray, resizableArray } from './growable-buffer';

/** Series ids the arrays first hold; they grow in place as ids grow past them. */
const INITIAL = 1024;
/** Series ids the arrays can hold, as the chunk table. */
const MAX_IDS = 1 << 26;

/**
 * The writer's state of each series (`MemorySeries`), in typed arrays by series id rather than
 * fields of an object: 41 bytes a series where an object with three doubles took about 150 (its
 * fields, and each double boxed in a heap number of its own that every append replaced). The
 * writer's thread alone reads them; readers go by the chunk table.
 */
export class SeriesStates {
  /** The newest sample's time and value, and whether it is a staleness marker. */
  readonly lastT = resizableArray(Float64Array, INITIAL, MAX_IDS);
  readonly lastV = resizableArray(Float64Array, INITIAL, MAX_IDS);
  readonly lastStale = resizableArray(Uint8Array, INITIAL, MAX_IDS);
  /** The newest time of the series' cold chunks, or a time no earlier; -Infinity for none. */
  readonly coldMaxT = resizableArray(Float64Array, INITIAL, MAX_IDS);
  /** The open chunk in `OpenChunks`, -1 for none. */
  readonly head = resizableArray(Int32Array, INITIAL, MAX_IDS);
  /** Samples in the chunks of the chain. */
  readonly count = resizableArray(Int32Array, INITIAL, MAX_IDS);
  /** The oldest chunk of the chain, -1 for none. */
  readonly oldest = resizableArray(Int32Array, INITIAL, MAX_IDS);
  /** The ring of recent samples, -1 for none. */
  readonly ring = resizableArray(Int32Array, INITIAL, MAX_IDS);

  /** Makes room for `id` and sets it to a series with no samples. */
  reset(id: number): void {
    if (id >= this.head.length) {
      for (const array of [this.lastT, this.lastV, this.lastStale, this.coldMaxT]) {
        growArray(array, id + 1);
      }
      for (const array of [this.head, this.count, this.oldest, this.ring]) growArray(array, id + 1);
    }
    this.lastT[id] = -Infinity;
    this.lastV[id] = NaN;
    this.lastStale[id] = 0;
    this.coldMaxT[id] = -Infinity;
    this.head[id] = -1;
    this.count[id] = 0;
    this.oldest[id] = -1;
    this.ring[id] = -1;
  }
}
