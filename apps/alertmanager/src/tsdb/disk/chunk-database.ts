import { open, type Database, type RootDatabase } from 'lmdb';
import type { DiskChunkSource } from '../memory/chunk-bytes';
import {
  decodeSummary,
  encodeBatch,
  encodeSummary,
  StoredBatch,
  summarize,
  type BatchSummary,
} from './batch-codec';

/** A closed chunk as it goes to disk: its sequence number (its key), series and time range. */
export interface DiskChunk {
  readonly seq: number;
  readonly seriesId: number;
  readonly count: number;
  readonly minT: number;
  readonly maxT: number;
  readonly bytes: Uint8Array;
}

/** What one write puts on disk and takes off it, in one transaction. */
export interface DiskWrite {
  /** Chunks with consecutive sequence numbers, the first of them keying their batch. */
  readonly chunks: readonly DiskChunk[];
  /** Series first written, with their encoded labels. */
  readonly series: readonly { readonly id: number; readonly labels: Uint8Array }[];
  readonly droppedSeries: readonly number[];
  /** Batches the retention dropped: their entries, summaries and chunks go. */
  readonly droppedBatches: readonly BatchSummary[];
  /** The oldest time still kept: chunks ending before it are gone, whatever a batch says. */
  readonly cutoff: number;
  /** Chunks ending before it are found through their batches only (see `ColdChunkIndex`). */
  readonly coldBefore: number;
  /** Batches before this sequence number were on disk before the log's last checkpoint. */
  readonly checkpointedSeq: number;
}

/** What the database last recorded of the store. */
export interface ChunkDatabaseState {
  readonly cutoff: number;
  readonly nextSeq: number;
  readonly coldBefore: number;
  readonly checkpointedSeq: number;
}

const META_CUTOFF = 'cutoff';
const META_NEXT_SEQ = 'next-seq';
const META_COLD_BEFORE = 'cold-before';
const META_CHECKPOINTED_SEQ = 'checkpointed-seq';
/** Sequence numbers are int32 refs' negative space; they wrap, long after retention freed the low ones. */
export const MAX_SEQ = 2 ** 31 - 1;

/**
 * Closed chunks on disk, in LMDB (through the `lmdb` package): memory-mapped, crash-safe (a
 * transaction is on disk whole or not at all), readable from every thread of the process while
 * one writes. Five tables:
 * - `chunks`: sequence number -> the chunk's bytes, keys growing with time, so the B-tree is
 *   filled at its right edge (a key per series would rewrite pages all over it: 14x the bytes);
 * - `batches`: first sequence number -> the descriptors of the chunks written together, in
 *   series id order (their sequence numbers follow it);
 * - `summaries`: first sequence number -> a batch's time range and size, which start-up reads
 *   instead of the batches of old data;
 * - `series`: id -> labels, for series that have chunks or were checkpointed;
 * - `meta`: the retention cutoff, the next sequence number, where cold chunks end, and which
 *   batches the log's last checkpoint follows.
 */
export class ChunkDatabase implements DiskChunkSource {
  /** Counts the snapshots this thread has read from: what was read in an older one may be stale. */
  snapshot = 0;
  /** Whether the last commit failed. */
  private failed = false;

  private constructor(
    private readonly root: RootDatabase,
    private readonly chunks: Database<Buffer, number>,
    private readonly batches: Database<Buffer, number>,
    private readonly summaryTable: Database<Buffer, number>,
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
      table('summaries'),
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
    this.refresh();
    return this.chunks.getBinaryFast(seq);
  }

  /**
   * A cold chunk's bytes, valid until the next read on this thread; undefined when this
   * thread's snapshot does not have it (a cold read keeps its snapshot).
   */
  coldChunk(seq: number): Uint8Array | undefined {
    return this.chunks.getBinaryFast(seq);
  }

  /** A batch's entries as this thread's snapshot has them, valid until the next read here. */
  batchEntries(first: number): Uint8Array | undefined {
    return this.batches.getBinaryFast(first);
  }

  /** A batch's entries, copied. */
  batch(first: number): StoredBatch | undefined {
    const entries = this.batches.getBinary(first);
    return entries === undefined ? undefined : new StoredBatch(first, entries);
  }

  /** Every batch's summary, oldest batch first. */
  summaries(): BatchSummary[] {
    const out: BatchSummary[] = [];
    for (const { key, value } of this.summaryTable.getRange()) out.push(decodeSummary(key, value));
    return out;
  }

  /** Batches written before summaries were, by first sequence number. */
  unsummarized(): number[] {
    const entries = (db: Database<Buffer, number>) =>
      (db.getStats() as { entryCount?: number }).entryCount;
    // Every batch has its summary once an earlier version's batches were summarized.
    if (entries(this.batches) === entries(this.summaryTable)) return [];
    const out: number[] = [];
    for (const key of this.batches.getKeys()) {
      if (this.summaryTable.getBinaryFast(key) === undefined) out.push(key);
    }
    return out;
  }

  /** Writes summaries of batches that have none. */
  async addSummaries(summaries: readonly BatchSummary[]): Promise<void> {
    if (summaries.length === 0) return;
    await this.commit(() => {
      for (const s of summaries) void this.summaryTable.put(s.first, encodeSummary(s));
    });
  }

  /** Lets the next read see every committed write (a thread's reads keep their snapshot). */
  refresh(): void {
    this.root.resetReadTxn();
    this.snapshot++;
  }

  /**
   * Runs `changes` in one write transaction; resolves once it is committed and visible. A commit
   * the disk refuses (full, failing) rejects with the disk's error and changes nothing.
   */
  private async commit(changes: () => void): Promise<void> {
    try {
      await this.root.transaction(() => {
        // lmdb rejects its own promise of the batch too when a commit fails, and nothing else
        // waits for it: unhandled, that rejection would end the process on a full disk.
        this.root.committed.then(undefined, ignore);
        changes();
      });
    } catch (error) {
      this.failed = true;
      // lmdb's error only points at `commitError`, the promise of the disk's own error.
      const commitError = (error as { commitError?: Promise<unknown> }).commitError;
      if (commitError === undefined) throw error;
      throw await commitError.then(
        () => error,
        (cause: unknown) => (cause instanceof Error ? cause : error),
      );
    }
    this.failed = false;
  }

  /** Applies one write in one transaction; resolves once it is committed and visible. */
  async write(change: DiskWrite): Promise<void> {
    await this.commit(() => {
      for (const chunk of change.chunks) void this.chunks.put(chunk.seq, Buffer.from(chunk.bytes));
      if (change.chunks.length > 0) {
        const first = change.chunks[0].seq;
        void this.batches.put(first, encodeBatch(change.chunks));
        void this.summaryTable.put(first, encodeSummary(summarize(first, change.chunks)));
        const last = change.chunks[change.chunks.length - 1].seq;
        void this.meta.put(META_NEXT_SEQ, last >= MAX_SEQ ? 0 : last + 1);
      }
      for (const s of change.series) void this.seriesTable.put(s.id, Buffer.from(s.labels));
      for (const id of change.droppedSeries) void this.seriesTable.remove(id);
      for (const batch of change.droppedBatches) {
        for (let i = 0; i < batch.length; i++) void this.chunks.remove(batch.first + i);
        void this.batches.remove(batch.first);
        void this.summaryTable.remove(batch.first);
      }
      void this.meta.put(META_CUTOFF, change.cutoff);
      void this.meta.put(META_COLD_BEFORE, change.coldBefore);
      void this.meta.put(META_CHECKPOINTED_SEQ, change.checkpointedSeq);
    });
  }

  /**
   * Resolves once every committed write is on disk for good. After a failed commit lmdb's promise
   * of that waits for the next commit that succeeds, so it is not waited for then.
   */
  async flushed(): Promise<void> {
    if (!this.failed) await this.root.flushed;
  }

  /** What was last written of the store, as this thread's snapshot has it. */
  state(): ChunkDatabaseState {
    return {
      cutoff: this.meta.get(META_CUTOFF) ?? -Infinity,
      nextSeq: this.meta.get(META_NEXT_SEQ) ?? 0,
      coldBefore: this.meta.get(META_COLD_BEFORE) ?? -Infinity,
      checkpointedSeq: this.meta.get(META_CHECKPOINTED_SEQ) ?? 0,
    };
  }

  /** Every series' encoded labels, by id. */
  *series(): Generator<[id: number, labels: Buffer]> {
    for (const { key, value } of this.seriesTable.getRange()) yield [key, value];
  }

  async close(): Promise<void> {
    await this.root.close();
  }
}

const ignore = (): void => undefined;
