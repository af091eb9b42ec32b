/** Series ids the arrays first hold; they double as ids grow past them. */
const INITIAL = 1024;

/**
 * The writer's state of each series (`MemorySeries`), in typed arrays by series id rather than
 * fields of an object: 41 bytes a series where an object with three doubles took about 150 (its
 * fields, and each double boxed in a heap number of its own that every append replaced). The
 * writer's thread alone reads them; readers go by the chunk table.
 */
export class SeriesStates {
  /** The newest sample's time and value, and whether it is a staleness marker. */
  lastT = new Float64Array(INITIAL);
  lastV = new Float64Array(INITIAL);
  lastStale = new Uint8Array(INITIAL);
  /** The newest time of the series' cold chunks, or a time no earlier; -Infinity for none. */
  coldMaxT = new Float64Array(INITIAL);
  /** The open chunk in `OpenChunks`, -1 for none. */
  head = new Int32Array(INITIAL);
  /** Samples in the chunks of the chain. */
  count = new Int32Array(INITIAL);
  /** The oldest chunk of the chain, -1 for none. */
  oldest = new Int32Array(INITIAL);
  /** The ring of recent samples, -1 for none. */
  ring = new Int32Array(INITIAL);

  /** Makes room for `id` and sets it to a series with no samples. */
  reset(id: number): void {
    if (id >= this.head.length) this.grow(id + 1);
    this.lastT[id] = -Infinity;
    this.lastV[id] = NaN;
    this.lastStale[id] = 0;
    this.coldMaxT[id] = -Infinity;
    this.head[id] = -1;
    this.count[id] = 0;
    this.oldest[id] = -1;
    this.ring[id] = -1;
  }

  private grow(atLeast: number): void {
    let capacity = this.head.length;
    while (capacity < atLeast) capacity *= 2;
    this.lastT = grown(this.lastT, new Float64Array(capacity));
    this.lastV = grown(this.lastV, new Float64Array(capacity));
    this.lastStale = grown(this.lastStale, new Uint8Array(capacity));
    this.coldMaxT = grown(this.coldMaxT, new Float64Array(capacity));
    this.head = grown(this.head, new Int32Array(capacity));
    this.count = grown(this.count, new Int32Array(capacity));
    this.oldest = grown(this.oldest, new Int32Array(capacity));
    this.ring = grown(this.ring, new Int32Array(capacity));
  }
}

function grown<T extends Float64Array | Int32Array | Uint8Array>(from: T, to: T): T {
  to.set(from as never);
  return to;
}
