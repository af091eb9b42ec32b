import { diskRef, isDiskRef } from '../memory/chunk-bytes';
import type { ChunkDiskSide, StoreMemory } from '../memory/store-memory';
import { MAX_SEQ, type ChunkDatabase, type DiskChunk, type StoredBatch } from './chunk-database';

/** A batch on disk: how many of its chunks and bytes are still kept, and its newest time. */
interface BatchState {
  readonly first: number;
  live: number;
  bytes: number;
  maxT: number;
}

/**
 * Moves closed chunks from shared memory to the chunk database: chunks closed since the last
 * flush are written in one transaction with the labels of new series and what retention dropped;
 * once it is committed each chunk's ref points at its copy on disk and its memory is released
 * (after the reads that may be in it, see `ReadEpochs`). The write-ahead log still holds the
 * samples until a checkpoint waits for the database's sync, so nothing is lost in between.
 */
export class ChunkFlusher implements ChunkDiskSide {
  /** Closed chunks in memory, not yet written: chunk -> series. */
  private readonly pending = new Map<number, number>();
  /** Chunks being written: chunk -> what was written. */
  private readonly inFlight = new Map<number, DiskChunk>();
  private droppedChunks: number[] = [];
  private droppedSeries: number[] = [];
  private readonly newSeries = new Map<number, Uint8Array>();
  /** Batches on disk, oldest first (their first sequence numbers grow). */
  private readonly batches: BatchState[] = [];
  private droppedBatches: number[] = [];
  private nextSeq: number;
  private cutoff: number;
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly memory: StoreMemory,
    private readonly db: ChunkDatabase,
  ) {
    const state = db.state();
    this.nextSeq = state.nextSeq;
    this.cutoff = state.cutoff;
  }

  /** The retention cutoff the database last recorded (-Infinity when new). */
  get storedCutoff(): number {
    return this.cutoff;
  }

  /** Takes a batch read back at start-up: its chunks marked in `kept` are linked to series. */
  adoptBatch(batch: StoredBatch, kept: Uint8Array): void {
    const state: BatchState = { first: batch.first, live: 0, bytes: 0, maxT: -Infinity };
    for (let i = 0; i < batch.length; i++) {
      if (kept[i] === 1) {
        state.live++;
        state.bytes += batch.bytes(i);
        state.maxT = Math.max(state.maxT, batch.maxT(i));
      } else this.droppedChunks.push(batch.seq(i));
    }
    if (state.live > 0) this.batches.push(state);
    else this.droppedBatches.push(batch.first);
  }

  /** A series whose labels the next flush writes. */
  seriesCreated(id: number, labels: Uint8Array): void {
    this.newSeries.set(id, labels);
  }

  seriesDropped(ids: readonly number[]): void {
    for (const id of ids) {
      if (!this.newSeries.delete(id)) this.droppedSeries.push(id);
    }
  }

  // ChunkDiskSide: told by the store's memory.

  sealed(chunk: number, seriesId: number): void {
    this.pending.set(chunk, seriesId);
  }

  droppedInMemory(chunk: number): void {
    if (!this.pending.delete(chunk)) this.inFlight.delete(chunk);
  }

  droppedOnDisk(seq: number, bytes: number): void {
    this.droppedChunks.push(seq);
    const batch = this.batchOf(seq);
    if (batch === undefined) return;
    batch.live--;
    batch.bytes -= bytes;
    if (batch.live > 0) return;
    this.batches.splice(this.batches.indexOf(batch), 1);
    this.droppedBatches.push(batch.first);
  }

  /** Records the retention cutoff with the next write. */
  setCutoff(cutoff: number): void {
    this.cutoff = Math.max(this.cutoff, cutoff);
  }

  /** Bytes of the chunks kept on disk. */
  get diskBytes(): number {
    let total = 0;
    for (const batch of this.batches) total += batch.bytes;
    return total;
  }

  /**
   * The newest time among the oldest batches that must go for the chunks on disk to take at
   * most `maxBytes`; undefined when they already do.
   */
  cutoffForSize(maxBytes: number): number | undefined {
    let total = this.diskBytes;
    let cutoff: number | undefined;
    for (const batch of this.batches) {
      if (total <= maxBytes) break;
      total -= batch.bytes;
      cutoff = Math.max(cutoff ?? -Infinity, batch.maxT);
    }
    return cutoff;
  }

  /** Closed chunks waiting for the next flush. */
  get pendingChunks(): number {
    return this.pending.size;
  }

  /** Writes what is pending; flushes run one after another. */
  flush(): Promise<void> {
    const next = this.running.then(() => this.write());
    this.running = next.catch(() => undefined);
    return next;
  }

  /** Resolves once every committed write is durable. */
  async synced(): Promise<void> {
    await this.running;
    await this.db.flushed();
  }

  private async write(): Promise<void> {
    const { table, segments } = this.memory;
    const chunks: DiskChunk[] = [];
    for (const [chunk, seriesId] of this.pending) {
      // A batch's sequence numbers are consecutive: one that would wrap waits for the next.
      if (chunks.length > 0 && this.nextSeq === 0) break;
      const ref = table.ref(chunk);
      const entry: DiskChunk = {
        seq: this.nextSeq,
        seriesId,
        count: table.count(chunk),
        minT: table.minT(chunk),
        maxT: table.maxT(chunk),
        bytes: Buffer.from(segments.at(ref, table.byteLength(chunk))),
      };
      this.nextSeq = this.nextSeq >= MAX_SEQ ? 0 : this.nextSeq + 1;
      chunks.push(entry);
      this.pending.delete(chunk);
      this.inFlight.set(chunk, entry);
    }
    const series = [...this.newSeries].map(([id, labels]) => ({ id, labels }));
    this.newSeries.clear();
    const droppedSeries = this.droppedSeries;
    const droppedChunks = this.droppedChunks;
    const droppedBatches = this.droppedBatches;
    this.droppedSeries = [];
    this.droppedChunks = [];
    this.droppedBatches = [];
    const empty =
      chunks.length + series.length + droppedSeries.length + droppedChunks.length === 0 &&
      droppedBatches.length === 0;
    if (empty) return;
    try {
      await this.db.write({
        chunks,
        series,
        droppedSeries,
        droppedChunks,
        droppedBatches,
        cutoff: this.cutoff,
      });
    } catch (error) {
      // Nothing was written: all of it waits for the next flush.
      for (const [chunk, entry] of this.inFlight) this.pending.set(chunk, entry.seriesId);
      this.inFlight.clear();
      for (const s of series) this.newSeries.set(s.id, s.labels);
      this.droppedSeries.push(...droppedSeries);
      this.droppedChunks.push(...droppedChunks);
      this.droppedBatches.push(...droppedBatches);
      throw error;
    }
    this.db.refresh();
    this.moved(chunks);
  }

  /** Points each written chunk still kept at its copy on disk and frees its memory. */
  private moved(chunks: readonly DiskChunk[]): void {
    if (chunks.length === 0) return;
    const { table, sealed } = this.memory;
    const batch: BatchState = { first: chunks[0].seq, live: 0, bytes: 0, maxT: -Infinity };
    for (const [chunk, entry] of this.inFlight) {
      const ref = table.ref(chunk);
      if (isDiskRef(ref)) continue;
      table.move(chunk, diskRef(entry.seq), entry.bytes.length);
      sealed.release(ref);
      batch.live++;
      batch.bytes += entry.bytes.length;
      batch.maxT = Math.max(batch.maxT, entry.maxT);
    }
    // Chunks dropped while they were being written go from the disk with the next flush.
    const kept = new Set([...this.inFlight.values()].map((entry) => entry.seq));
    for (const entry of chunks) if (!kept.has(entry.seq)) this.droppedChunks.push(entry.seq);
    this.inFlight.clear();
    if (batch.live > 0) this.batches.push(batch);
    else this.droppedBatches.push(batch.first);
  }

  private batchOf(seq: number): BatchState | undefined {
    let lo = 0;
    let hi = this.batches.length - 1;
    let found: BatchState | undefined;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if (this.batches[mid].first <= seq) {
        found = this.batches[mid];
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  }
}
