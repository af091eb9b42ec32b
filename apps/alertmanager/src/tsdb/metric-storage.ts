import { rm } from 'node:fs/promises';
import type { AppendLog, LogFiles, LogRecovery } from '../storage';
import type { CheckpointHook } from './checkpoint-stages';
import { CheckpointMetrics } from './checkpoint-metrics';
import type { Labels } from './labels';
import type { MemoryStore } from './memory-store';
import { MetricAppender } from './metric-appender';
import type { AppendListener, AppendResult } from './metric-appender';
import { SampleRejectedError, type MemorySeries } from './memory-series';
import type { Querier, Queryable } from './queryable';
import { ChunkDatabase } from './disk/chunk-database';
import { ChunkFlusher } from './disk/chunk-flusher';
import {
  encodeSamples,
  encodeSeries,
  encodeXorSamples,
  type SeriesRecord,
} from './wal/wal-records';
import type { SampleChain } from './wal/sample-chain';
import { writeHeadSnapshot } from './wal/write-head-snapshot';
import { MetricLogReader, type LogPosition } from './wal/metric-log-reader';
import { LogReaders } from './log-readers';
import { loadMetricStorage, type MetricStorageOptions } from './metric-storage-start';
import type { IdSet } from './id-set';

export type { MetricStorageOptions } from './metric-storage-start';
export type { AppendedBatch, AppendListener, AppendResult } from './metric-appender';
export type { LogPosition, LogRead, RecordEnd } from './wal/metric-log-reader';

/** Closed chunks in memory that start a flush to disk before the next checkpoint. */
const FLUSH_AT_CHUNKS = 4096;
export const DEFAULT_WARM_WINDOW_MS = 3 * 3_600_000;

/**
 * The metric store on disk. Series and their newest samples are in memory (see
 * {@link MemoryStore}); closed chunks move to the chunk database (`metrics-chunks/`, see
 * {@link ChunkDatabase}), read back on demand, so memory follows the number of series rather than
 * the retention. Every committed batch is written at once to a write-ahead log on the shared
 * storage floor (checksummed records, torn tail cut off on start, synced on an interval), and its
 * commit says when the write has completed. `checkpoint` rolls the log to a new segment, then,
 * while appends go on into it, drops what the retention no longer keeps, writes the closed chunks
 * not yet on disk, waits for the database's sync, and writes a checkpoint of what is only in
 * memory (open chunks, labels): it writes what is new, never the whole store. Start-up reads the
 * series, the chunk descriptors and the checkpoint, then replays the log segments from the
 * checkpoint's generation on.
 */
export class MetricStorage implements Queryable {
  /** The log segment appends go to. */
  private generation: number;
  private readonly appendListeners: AppendListener[] = [];
  private readonly readers = new LogReaders();
  private background: Promise<void> | undefined;
  private checkpointing: Promise<number> | undefined;

  private constructor(
    readonly store: MemoryStore,
    private readonly files: LogFiles,
    private readonly log: AppendLog,
    private readonly options: MetricStorageOptions,
    readonly recovery: LogRecovery,
    /** Series written to the log (or the checkpoint) already. */
    private readonly logged: IdSet,
    private readonly db: ChunkDatabase,
    private readonly flusher: ChunkFlusher,
    /** The values the log's records are XORed with, as its replay left them. */
    private readonly chain: SampleChain,
    /** Counts checkpoints and the log's truncations. */
    readonly checkpointMetrics: CheckpointMetrics,
    private readonly hook: CheckpointHook | undefined,
  ) {
    this.generation = recovery.generation;
    checkpointMetrics.currentSegment.set(this.generation);
  }

  static async open(options: MetricStorageOptions): Promise<MetricStorage> {
    const loaded = await loadMetricStorage(options);
    return new MetricStorage(
      loaded.store,
      loaded.files,
      loaded.log,
      options,
      loaded.recovery,
      loaded.logged,
      loaded.db,
      loaded.flusher,
      loaded.chain,
      new CheckpointMetrics(options.registry),
      loaded.hook,
    );
  }

  /** Collects samples to append together; nothing is visible or logged before `commit`. */
  /** The label set as the store keeps it (see `MemoryStore.kept`). */
  kept(labels: Labels): Labels {
    return this.store.kept(labels);
  }

  appender(): MetricAppender {
    return new MetricAppender(this);
  }

  /** Tells `listener` of every batch committed from now on; the returned function stops it. */
  onAppend(listener: AppendListener): () => void {
    this.appendListeners.push(listener);
    return () => {
      const at = this.appendListeners.indexOf(listener);
      if (at >= 0) this.appendListeners.splice(at, 1);
    };
  }

  /** The end of what the log has written: where a reader that has caught up stands. */
  logEnd(): LogPosition {
    return { segment: this.generation, offset: this.log.writtenBytes };
  }

  /** Calls `listener` whenever the log has written more (a commit's records, a roll). */
  onLogWritten(listener: () => void): () => void {
    return this.readers.onWritten(listener);
  }

  /**
   * Keeps the log's segments from the one `oldest` names on through checkpoints, as long as the
   * retention keeps their samples; the returned function lets go.
   */
  holdLog(oldest: () => number | undefined): () => void {
    return this.readers.hold(oldest);
  }

  /** A reader of the log's samples from `from` on (see {@link MetricLogReader}). */
  readLog(from: LogPosition): MetricLogReader {
    return new MetricLogReader(
      {
        files: this.files,
        end: () => this.logEnd(),
        labelsOf: (id) => this.store.byId(id)?.labels,
        logger: this.options.logger,
      },
      from,
    );
  }

  querier(mint: number, maxt: number): Querier {
    return this.store.querier(mint, maxt);
  }

  /** @internal Applies and logs one batch (see {@link MetricAppender.commit}). */
  write(
    labels: readonly Labels[],
    t: readonly number[],
    v: readonly number[],
    stale: readonly boolean[],
  ): AppendResult {
    const newSeries: SeriesRecord[] = [];
    const batch = {
      ids: [] as number[],
      t: [] as number[],
      v: [] as number[],
      stale: [] as boolean[],
    };
    const rejected = new Map<string, number>();
    const told = this.appendListeners.length > 0 ? ([] as Labels[]) : undefined;
    // No sample goes before the cold chunks (Prometheus's head refuses them the same way).
    const minValidTime = this.store.memory.table.coldBefore();
    for (let i = 0; i < labels.length; i++) {
      if (t[i] < minValidTime) {
        rejected.set('out of bounds', (rejected.get('out of bounds') ?? 0) + 1);
        continue;
      }
      const series: MemorySeries = this.store.seriesFor(labels[i]);
      if (!this.logged.has(series.id)) {
        this.logged.add(series.id);
        newSeries.push({ id: series.id, labels: series.labels });
      }
      try {
        const before = series.length;
        series.append(t[i], v[i], stale[i]);
        if (series.length === before) continue;
      } catch (error) {
        if (!(error instanceof SampleRejectedError)) throw error;
        rejected.set(error.message, (rejected.get(error.message) ?? 0) + 1);
        continue;
      }
      batch.ids.push(series.id);
      batch.t.push(t[i]);
      batch.v.push(v[i]);
      batch.stale.push(stale[i]);
      told?.push(series.labels);
    }
    if (newSeries.length > 0) this.log.append(encodeSeries(newSeries));
    if (batch.ids.length > 0) {
      this.log.append(encodeXorSamples(batch, this.chain) ?? encodeSamples(batch));
    }
    // Written now rather than at the next timed sync, even when this batch added nothing: a
    // sample the batch repeats may still be on its way to the log with an earlier batch.
    const written = this.log.commitQueued();
    if (this.readers.listening)
      written.then(
        () => this.readers.notifyWritten(),
        () => undefined,
      );
    // The log has reported a failed write; a caller that does not wait for it needs no rejection.
    written.catch(() => undefined);
    if (this.flusher.pendingChunks >= FLUSH_AT_CHUNKS) this.flushInBackground();
    if (told !== undefined && told.length > 0) {
      const appended = { labels: told, t: batch.t, v: batch.v, stale: batch.stale };
      for (const listener of this.appendListeners) listener(appended);
    }
    return { appended: batch.ids.length, rejected, written };
  }

  /**
   * Checkpoints the store; a call while one runs waits for that one. First the log rolls to its
   * next segment: the only step that holds appends, for the writes of what is already queued. The
   * rest runs while appends go on into the new segment: it drops what the retention no longer
   * keeps (whole chunks, by time and then by size) and series left empty, writes the closed chunks
   * not yet on disk and waits for their sync, writes a snapshot of the chunks only in memory as
   * the new segment's generation (captured in slices that yield to the event loop), renames it
   * into place, and only then removes the older segments and makes chunks on disk older than the
   * warm window cold. A failure until the snapshot is in place is logged, counted and thrown, and
   * leaves the previous snapshot and every segment since it, which replay exactly; the next
   * checkpoint tries again. One removing the older segments is logged and counted only: they are
   * stale, and a start removes them. Returns the snapshot's size in bytes.
   */
  checkpoint(nowMs: number): Promise<number> {
    this.checkpointing ??= this.runCheckpoint(nowMs).finally(() => {
      this.checkpointing = undefined;
    });
    return this.checkpointing;
  }

  private async runCheckpoint(nowMs: number): Promise<number> {
    const { creations, creationsFailed } = this.checkpointMetrics;
    creations.inc();
    let step = 'rolling the log';
    let rolled = false;
    let bytes: number;
    let checkpointedSeq: number;
    try {
      await this.roll();
      rolled = true;
      step = 'dropping what the retention no longer keeps';
      await this.hook?.('rolled');
      await this.applyRetention(nowMs);
      step = 'writing closed chunks to disk';
      await this.flusher.flush();
      await this.flusher.synced();
      checkpointedSeq = this.flusher.writtenSeq;
      step = 'writing the snapshot';
      const series = [...this.store.all()];
      const live = (s: MemorySeries) => this.store.byId(s.id) === s;
      bytes = await writeHeadSnapshot(this.files, this.generation, series, live);
      await this.hook?.('snapshot-written');
      step = 'renaming the snapshot into place';
      await this.files.placeSnapshot();
    } catch (error) {
      creationsFailed.inc();
      await rm(this.files.unfinishedSnapshot, { force: true }).catch(() => undefined);
      this.options.logger.error(
        'Checkpoint failed; the last checkpoint and the log since it are kept, and the next maintenance tries again',
        { step, err: (error as Error).message, log_rolled: rolled },
      );
      throw new Error(`checkpoint failed ${step}: ${(error as Error).message}`, { cause: error });
    }
    this.flusher.checkpointed(checkpointedSeq);
    await this.removeOldSegments(nowMs);
    await this.ageOut(nowMs);
    return bytes;
  }

  /**
   * Opens the log's next segment and moves the log onto it, the sample chain starting over with
   * it. When the segment cannot be opened nothing changes: appends go on into the current one.
   */
  private async roll(): Promise<void> {
    const next = this.generation + 1;
    await this.hook?.('segment-open');
    const handle = await this.files.openLog(next, true);
    // Records queued until the swap were XORed along the chain for the current segment.
    await this.log.roll(handle, () => {
      this.chain.reset();
      this.generation = next;
    });
    this.checkpointMetrics.currentSegment.set(next);
    this.readers.notifyWritten();
  }

  /**
   * Removes the segments the snapshot in place holds, but those a reader still needs within the
   * retention; a failure leaves them for the next one.
   */
  private async removeOldSegments(nowMs: number): Promise<void> {
    const { truncations, truncationsFailed } = this.checkpointMetrics;
    truncations.inc();
    try {
      await this.hook?.('segments-removal');
      const cutoff = nowMs - this.options.retentionMs;
      const keepFrom = await this.readers.keptFrom(this.files, this.generation, cutoff);
      await this.files.removeStale(this.generation, keepFrom);
    } catch (error) {
      truncationsFailed.inc();
      // Segments older than the snapshot are never replayed: a start removes them.
      this.options.logger.error('Removing log segments the checkpoint holds failed', {
        err: (error as Error).message,
      });
    }
  }

  /** Cuts chunks on disk that ended before the warm window from their series (see `ColdChunkIndex`). */
  private async ageOut(nowMs: number): Promise<void> {
    const before = nowMs - (this.options.warmWindowMs ?? DEFAULT_WARM_WINDOW_MS);
    if (!(before > this.store.memory.table.coldBefore())) return;
    this.flusher.setColdBefore(before);
    await this.store.ageOut(before, (seq) => this.flusher.coldable(seq));
  }

  /** Bytes of closed chunks on disk. */
  get diskBytes(): number {
    return this.flusher.diskBytes;
  }

  private async applyRetention(nowMs: number): Promise<void> {
    let cutoff = nowMs - this.options.retentionMs;
    const maxBytes = this.options.retentionBytes ?? 0;
    if (maxBytes > 0) {
      const bySize = this.flusher.cutoffForSize(maxBytes - this.log.bytes);
      // Chunks ending at or before the newest time of the batches over the limit go.
      if (bySize !== undefined) cutoff = Math.max(cutoff, bySize + 1);
    }
    await this.store.truncateBeforeInSlices(cutoff);
    this.flusher.setCutoff(cutoff);
  }

  private flushInBackground(): void {
    this.background ??= this.flusher
      .flush()
      .catch((error: Error) => {
        this.options.logger.error('Writing closed chunks to disk failed', { err: error.message });
      })
      .finally(() => {
        this.background = undefined;
      });
  }

  /** Bytes of the log since the last snapshot. */
  get logBytes(): number {
    return this.log.bytes;
  }

  /** Makes everything appended so far durable. */
  flush(): Promise<void> {
    return this.log.flush();
  }

  /** Waits for a checkpoint under way, then syncs and closes the log and the chunk database. */
  async close(): Promise<void> {
    await this.store.ringsOpened();
    await this.checkpointing?.catch(() => undefined);
    await this.log.close();
    await this.flusher.synced().catch(() => undefined);
    await this.db.close();
  }
}
