import { TimeSlices } from '../../time/time-slices';
import type { Labels } from '../labels';
import { diskRef, isDiskRef } from '../memory/chunk-bytes';
import type { ChunkDiskSide, StoreMemory } from '../memory/store-memory';
import { summarize, type BatchSummary } from './batch-codec';
import { MAX_SEQ, type ChunkDatabase, type DiskChunk } from './chunk-database';
import { encodeLabels } from '../wal/wal-records';

/** How long the encoding of new series' labels for a write runs before the event loop turns. */
const ENCODE_SLICE_MS = 5;

/**
 * Moves closed chunks from shared memory to the chunk database: chunks closed since the last
 * flush are written in one transaction, in series id order (so a series' chunks in a batch are
 * found by bisection once they are cold), with the labels of new series and the batches the
 * retention dropped; once it is committed each chunk's ref points at its copy on disk and its
 * memory is released (after the reads that may be in it, see `ReadEpochs`). The write-ahead log
 * still holds the samples until a checkpoint waits for the database's sync, so nothing is lost in
 * between. Chunks leave the disk a batch at a time, when the retention passes the batch's newest.
 */
export class ChunkFlusher implements ChunkDiskSide {
  /** Closed chunks in memory, not yet written: chunk -> series. */
  private readonly pending = new Map<number, number>();
  /** Chunks being written: chunk -> what was written. */
  private readonly inFlight = new Map<number, DiskChunk>();
  private droppedSeries: number[] = [];
  /**
   * Series created since the last write, with their labels (the store's own sets, encoded only
   * when written: 100,000 new series each holding its bytes took 20 MiB more).
   */
  private readonly newSeries = new Map<number, Labels>();
  /** Batches on disk, oldest first (their first sequence numbers grow). */
  private batches: BatchSummary[] = [];
  private droppedBatches: BatchSummary[] = [];
  private nextSeq: number;
  private cutoff: number;
  private coldBefore: number;
  private checkpointedSeq: number;
  /** The cutoff, cold boundary and checkpointed sequence number the database last committed. */
  private committed: { cutoff: number; coldBefore: number; checkpointedSeq: number };
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly memory: StoreMemory,
    private readonly db: ChunkDatabase,
    /** Called before each write (a test's fault or pause; see `CheckpointHook`). */
    private readonly beforeWrite?: () => Promise<void> | void,
  ) {
    const state = db.state();
    this.nextSeq = state.nextSeq;
    this.cutoff = state.cutoff;
    this.coldBefore = state.coldBefore;
    this.checkpointedSeq = state.checkpointedSeq;
    this.committed = state;
  }

  /** Takes a batch read back at start-up (in key order). */
  adoptBatch(summary: BatchSummary): void {
    this.batches.push(summary);
  }

  /** The next sequence number: batches before it are on disk once the running flush is. */
  get writtenSeq(): number {
    return this.nextSeq;
  }

  /** Records, with the next write, that batches before `seq` were on disk before a checkpoint. */
  checkpointed(seq: number): void {
    this.checkpointedSeq = seq;
  }

  /** Records, with the next write, where cold chunks end. */
  setColdBefore(time: number): void {
    this.coldBefore = Math.max(this.coldBefore, time);
  }

  /** Whether a chunk on disk can go cold: its batch's entries are in series order. */
  coldable(seq: number): boolean {
    return this.batchOf(seq)?.sorted === true;
  }

  /** A series whose labels the next flush writes. */
  seriesCreated(id: number, labels: Labels): void {
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

  /** Records the retention cutoff with the next write, which drops the batches ending before it. */
  setCutoff(cutoff: number): void {
    this.cutoff = Math.max(this.cutoff, cutoff);
    const kept = this.batches.filter((batch) => batch.maxT >= this.cutoff);
    if (kept.length === this.batches.length) return;
    this.droppedBatches.push(...this.batches.filter((batch) => batch.maxT < this.cutoff));
    this.batches = kept;
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
    const chunks = this.takePending();
    const created = [...this.newSeries];
    this.newSeries.clear();
    const series = await encodeInSlices(created);
    const droppedSeries = this.droppedSeries;
    const droppedBatches = this.droppedBatches;
    this.droppedSeries = [];
    this.droppedBatches = [];
    const marks = {
      cutoff: this.cutoff,
      coldBefore: this.coldBefore,
      checkpointedSeq: this.checkpointedSeq,
    };
    const unchanged =
      marks.cutoff === this.committed.cutoff &&
      marks.coldBefore === this.committed.coldBefore &&
      marks.checkpointedSeq === this.committed.checkpointedSeq;
    const empty =
      chunks.length + series.length + droppedSeries.length + droppedBatches.length === 0;
    if (empty && unchanged) return;
    try {
      await this.beforeWrite?.();
      await this.db.write({
        chunks,
        series,
        droppedSeries,
        droppedBatches,
        ...marks,
      });
    } catch (error) {
      // Nothing was written: all of it waits for the next flush.
      for (const [chunk, entry] of this.inFlight) this.pending.set(chunk, entry.seriesId);
      this.inFlight.clear();
      for (const [id, labels] of created) this.newSeries.set(id, labels);
      this.droppedSeries.push(...droppedSeries);
      this.droppedBatches.push(...droppedBatches);
      throw error;
    }
    this.committed = marks;
    this.db.refresh();
    this.moved(chunks);
  }

  /**
   * The pending chunks as the next batch, in series id order (a series' chunks oldest first), with
   * consecutive sequence numbers; a batch whose numbers would wrap ends before they do.
   */
  private takePending(): DiskChunk[] {
    const { table, segments } = this.memory;
    const order = [...this.pending].sort(
      ([a, seriesA], [b, seriesB]) => seriesA - seriesB || table.minT(a) - table.minT(b),
    );
    const chunks: DiskChunk[] = [];
    for (const [chunk, seriesId] of order) {
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
    return chunks;
  }

  /**
   * Points each written chunk still kept at its copy on disk and frees its memory; chunks
   * dropped while they were being written stay on disk until their batch goes.
   */
  private moved(chunks: readonly DiskChunk[]): void {
    if (chunks.length === 0) return;
    const { table, sealed } = this.memory;
    for (const [chunk, entry] of this.inFlight) {
      const ref = table.ref(chunk);
      if (isDiskRef(ref)) continue;
      table.move(chunk, diskRef(entry.seq), entry.bytes.length);
      sealed.release(ref);
    }
    this.inFlight.clear();
    this.batches.push(summarize(chunks[0].seq, chunks));
  }

  private batchOf(seq: number): BatchSummary | undefined {
    let lo = 0;
    let hi = this.batches.length - 1;
    let found: BatchSummary | undefined;
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

/** The series' labels as the database keeps them, encoded in slices that yield to the event loop. */
async function encodeInSlices(
  created: readonly (readonly [number, Labels])[],
): Promise<{ id: number; labels: Uint8Array }[]> {
  const out: { id: number; labels: Uint8Array }[] = [];
  const slices = new TimeSlices(ENCODE_SLICE_MS, 256);
  for (const [id, labels] of created) {
    out.push({ id, labels: encodeLabels(labels) });
    if (slices.due()) await slices.next();
  }
  return out;
}
