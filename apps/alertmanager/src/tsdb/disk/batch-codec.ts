/** A chunk's entry in its batch, as `encodeBatch` takes it. */
export interface BatchEntry {
  readonly seriesId: number;
  readonly count: number;
  readonly minT: number;
  readonly maxT: number;
  readonly bytes: { readonly length: number };
}

/** Bytes of one chunk's entry in a batch: series id, sample count, byte length, first and last time. */
const ENTRY_BYTES = 24;
/** Bytes of a batch's summary: time range, chunks, samples, bytes, flags. */
const SUMMARY_BYTES = 32;
/** The batch's entries are in series id order (so a series' chunks are found by bisection). */
const SORTED = 1;

/**
 * The chunk descriptors of one batch, read in place from the batch's entry (no object per
 * chunk): entry `i` is the chunk with sequence number `first + i`.
 */
export class StoredBatch {
  readonly length: number;
  private readonly view: DataView;

  constructor(
    readonly first: number,
    entries: Uint8Array,
  ) {
    if (entries.length % ENTRY_BYTES !== 0) throw new Error(`batch ${first} is corrupt`);
    this.length = entries.length / ENTRY_BYTES;
    this.view = new DataView(entries.buffer, entries.byteOffset, entries.byteLength);
  }

  seq(i: number): number {
    return this.first + i;
  }

  seriesId(i: number): number {
    return this.view.getUint32(i * ENTRY_BYTES, true);
  }

  count(i: number): number {
    return this.view.getUint16(i * ENTRY_BYTES + 4, true);
  }

  bytes(i: number): number {
    return this.view.getUint16(i * ENTRY_BYTES + 6, true);
  }

  minT(i: number): number {
    return this.view.getFloat64(i * ENTRY_BYTES + 8, true);
  }

  maxT(i: number): number {
    return this.view.getFloat64(i * ENTRY_BYTES + 16, true);
  }

  /** What its summary says, for a batch written before summaries were. */
  summarize(): BatchSummary {
    const entries = Array.from({ length: this.length }, (_, i) => ({
      seriesId: this.seriesId(i),
      count: this.count(i),
      minT: this.minT(i),
      maxT: this.maxT(i),
      bytes: { length: this.bytes(i) },
    }));
    return summarize(this.first, entries);
  }
}

/**
 * What is known of a batch without reading its entries: its time range (every chunk's), how
 * many chunks, samples and bytes it has, and whether its entries are in series id order.
 */
export interface BatchSummary {
  readonly first: number;
  readonly length: number;
  readonly minT: number;
  readonly maxT: number;
  readonly samples: number;
  readonly bytes: number;
  readonly sorted: boolean;
}

/** A batch's entries, in the order given (sequence numbers follow it). */
export function encodeBatch(chunks: readonly BatchEntry[]): Buffer {
  const out = Buffer.alloc(chunks.length * ENTRY_BYTES);
  chunks.forEach((chunk, i) => {
    const at = i * ENTRY_BYTES;
    out.writeUInt32LE(chunk.seriesId, at);
    out.writeUInt16LE(chunk.count, at + 4);
    out.writeUInt16LE(chunk.bytes.length, at + 6);
    out.writeDoubleLE(chunk.minT, at + 8);
    out.writeDoubleLE(chunk.maxT, at + 16);
  });
  return out;
}

export function encodeSummary(summary: BatchSummary): Buffer {
  const out = Buffer.alloc(SUMMARY_BYTES);
  out.writeDoubleLE(summary.minT, 0);
  out.writeDoubleLE(summary.maxT, 8);
  out.writeUInt32LE(summary.length, 16);
  out.writeUInt32LE(summary.samples, 20);
  out.writeUInt32LE(summary.bytes, 24);
  out.writeUInt32LE(summary.sorted ? SORTED : 0, 28);
  return out;
}

export function decodeSummary(first: number, bytes: Uint8Array): BatchSummary {
  if (bytes.length !== SUMMARY_BYTES) throw new Error(`the summary of batch ${first} is corrupt`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return {
    first,
    minT: view.getFloat64(0, true),
    maxT: view.getFloat64(8, true),
    length: view.getUint32(16, true),
    samples: view.getUint32(20, true),
    bytes: view.getUint32(24, true),
    sorted: (view.getUint32(28, true) & SORTED) !== 0,
  };
}

/** The summary of a batch about to be written. */
export function summarize(first: number, chunks: readonly BatchEntry[]): BatchSummary {
  let minT = Infinity;
  let maxT = -Infinity;
  let samples = 0;
  let bytes = 0;
  let sorted = true;
  chunks.forEach((chunk, i) => {
    minT = Math.min(minT, chunk.minT);
    maxT = Math.max(maxT, chunk.maxT);
    samples += chunk.count;
    bytes += chunk.bytes.length;
    if (i > 0 && chunk.seriesId < chunks[i - 1].seriesId) sorted = false;
  });
  return { first, length: chunks.length, minT, maxT, samples, bytes, sorted };
}
