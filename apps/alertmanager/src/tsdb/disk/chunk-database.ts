import { open, type Database, type RootDatabase } from 'lmdb';
import type { DiskChunkSource } from '../memory/chunk-bytes';

/** A closed chunk as it goes to disk: its sequence number (its key), series and time range. */
export interface DiskChunk {
  readonly seq: number;
  readonly seriesId: number;
  readonly count: number;
  readonly minT: number;
  readonly maxT: number;
  readonly bytes: Uint8Array;
}

/**
 * The chunk descriptors of one batch as start-up reads them back (the bytes stay on disk), read
 * in place from the batch's entry: no object per chunk.
 */
export class StoredBatch {
  readonly length: number;

  constructor(
    readonly first: number,
    private readonly entries: Buffer,
  ) {
    if (entries.length % ENTRY_BYTES !== 0) throw new Error(`batch ${first} is corrupt`);
    this.length = entries.length / ENTRY_BYTES;
  }

  seq(i: number): number {
    const seq = this.first + i;
    return seq > MAX_SEQ ? seq - MAX_SEQ - 1 : seq;
  }

  seriesId(i: number): number {
    return this.entries.readUInt32LE(i * ENTRY_BYTES);
  }

  count(i: number): number {
    return this.entries.readUInt16LE(i * ENTRY_BYTES + 4);
  }

  bytes(i: number): number {
    return this.entries.readUInt16LE(i * ENTRY_BYTES + 6);
  }

  minT(i: number): number {
    return this.entries.readDoubleLE(i * ENTRY_BYTES + 8);
  }

  maxT(i: number): number {
    return this.entries.readDoubleLE(i * ENTRY_BYTES + 16);
  }
}

/** What one write puts on disk and takes off it, in one transaction. */
export interface DiskWrite {
  /** Chunks with consecutive sequence numbers, the first of them keying their batch. */
  readonly chunks: readonly DiskChunk[];
  /** Series first written, with their encoded labels. */
  readonly series: readonly { readonly id: number; readonly labels: Uint8Array }[];
  readonly droppedSeries: readonly number[];
  readonly droppedChunks: readonly number[];
  /** Batches whose chunks are all dropped, by their first sequence number. */
  readonly droppedBatches: readonly number[];
  /** The oldest time still kept: chunks ending before it are gone, whatever a batch says. */
  readonly cutoff: number;
}

/** Bytes of one chunk's entry in a batch: series id, sample count, first and last time. */
const ENTRY_BYTES = 24;
const META_CUTOFF = 'cutoff';
const META_NEXT_SEQ = 'next-seq';
/** Sequence numbers are int32 refs' negative space; they wrap, long after retention freed the low ones. */
export const MAX_SEQ = 2 ** 31 - 1;

/**
 * Closed chunks on disk, in LMDB (through the `lmdb` package): memory-mapped, crash-safe (a
 * transaction is on disk whole or not at all), readable from every thread of the process while
 * one writes. Four tables:
 * - `chunks`: sequence number -> the chunk's bytes, keys growing with time, so the B-tree is
 *   filled at its right edge (a key per series would rewrite pages all over it: 14x the bytes);
 * - `batches`: first sequence number -> the descriptors of the chunks written together, which
 *   start-up reads instead of every chunk;
 * - `series`: id -> labels, for series that have chunks or were checkpointed;
 * - `meta`: the retention cutoff and the next sequence number.
 */
export class ChunkDatabase implements DiskChunkSource {
  private constructor(
    private readonly root: RootDatabase,
    private readonly chunks: Database<Buffer, number>,
    private readonly batches: Database<Buffer, number>,
    private readonly seriesTable: Database<Buffer, number>,
    private readonly meta: Database<number, string>,
  ) {}

  /** Opens (creating when writable) the database in `dir`. */
  static open(dir: string, readOnly = false): ChunkDatabase {
    const root = open({ path: dir, maxDbs: 8, readOnly, compression: false });
    const table = (name: string) =>
      root.openDB<Buffer, number>({ name, keyEncoding: 'uint32', encoding: 'binary' });
    return new ChunkDatabase(
      root,
      table('chunks'),
      table('batches'),
      table('series'),
      root.openDB<number, string>({ name: 'meta', encoding: 'ordered-binary' }),
    );
  }

  /**
   * A chunk's bytes, valid until the next read on this thread. A read that started before the
   * chunk's write was committed looks again with a fresh snapshot.
   */
  chunk(seq: number): Uint8Array | undefined {
    const bytes = this.chunks.getBinaryFast(seq);
    if (bytes !== undefined) return bytes;
    this.root.resetReadTxn();
    return this.chunks.getBinaryFast(seq);
  }

  /** Lets the next read see every committed write (a thread's reads keep their snapshot). */
  refresh(): void {
    this.root.resetReadTxn();
  }

  /** Applies one write in one transaction; resolves once it is committed and visible. */
  async write(change: DiskWrite): Promise<void> {
    await this.root.transaction(() => {
      for (const chunk of change.chunks) void this.chunks.put(chunk.seq, Buffer.from(chunk.bytes));
      if (change.chunks.length > 0) {
        const first = change.chunks[0].seq;
        void this.batches.put(first, encodeBatch(change.chunks));
        const last = change.chunks[change.chunks.length - 1].seq;
        void this.meta.put(META_NEXT_SEQ, last >= MAX_SEQ ? 0 : last + 1);
      }
      for (const s of change.series) void this.seriesTable.put(s.id, Buffer.from(s.labels));
      for (const id of change.droppedSeries) void this.seriesTable.remove(id);
      for (const seq of change.droppedChunks) void this.chunks.remove(seq);
      for (const first of change.droppedBatches) void this.batches.remove(first);
      void this.meta.put(META_CUTOFF, change.cutoff);
    });
  }

  /** Resolves once every committed write is on disk for good. */
  async flushed(): Promise<void> {
    await this.root.flushed;
  }

  /** The retention cutoff and next sequence number last written. */
  state(): { cutoff: number; nextSeq: number } {
    return {
      cutoff: this.meta.get(META_CUTOFF) ?? -Infinity,
      nextSeq: this.meta.get(META_NEXT_SEQ) ?? 0,
    };
  }

  /** Every series' encoded labels, by id. */
  *series(): Generator<[id: number, labels: Buffer]> {
    for (const { key, value } of this.seriesTable.getRange()) yield [key, value];
  }

  /** Every batch's chunk descriptors, oldest batch first. */
  *storedBatches(): Generator<StoredBatch> {
    for (const { key, value } of this.batches.getRange()) yield new StoredBatch(key, value);
  }

  /** Bytes the database's file takes. */
  get fileBytes(): number {
    const stats = this.root.getStats() as { pageSize?: number; lastPageNumber?: number };
    return (stats.pageSize ?? 0) * ((stats.lastPageNumber ?? -1) + 1);
  }

  async close(): Promise<void> {
    await this.root.close();
  }
}

function encodeBatch(chunks: readonly DiskChunk[]): Buffer {
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
