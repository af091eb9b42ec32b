import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../logging/logger';
import { AppendLog, loadLogState, LogFiles, rollSnapshot, type LogRecovery } from '../storage';
import type { Labels } from './labels';
import { MemoryStore } from './memory-store';
import { SampleRejectedError, type MemorySeries } from './memory-series';
import type { Querier, Queryable } from './queryable';
import { ChunkDatabase } from './disk/chunk-database';
import { ChunkFlusher } from './disk/chunk-flusher';
import { ColdChunkIndex } from './disk/cold-chunk-index';
import { CHUNKS_DIR } from './disk/early-verification';
import { loadChunkDatabase, setAsideIfDamaged } from './disk/load-chunk-database';
import {
  decodeRecord,
  encodeHeadSeries,
  encodeLabels,
  encodeSamples,
  encodeSeries,
  encodeXorSamples,
  inflateRecord,
  type HeadSeries,
  type SeriesRecord,
} from './wal/wal-records';
import { SampleChain } from './wal/sample-chain';

export interface MetricStorageOptions {
  /**
   * The storage directory (`--storage.path`): `metrics.snapshot` and `metrics-N.log` (the
   * checkpoint and the write-ahead log), `metrics-chunks/` (closed chunks, see `ChunkDatabase`).
   */
  readonly dir: string;
  /** How long samples are kept (`--storage.tsdb.retention.time`). */
  readonly retentionMs: number;
  /** At most this many bytes of chunks, log and checkpoint, oldest dropped first (`--storage.tsdb.retention.size`); 0: no limit. */
  readonly retentionBytes?: number;
  /**
   * How long chunks stay linked to their series in memory after they end (default 3 h, about
   * Prometheus's head): older chunks on disk are cold, found through their batches by the reads
   * that reach them, so memory does not grow with the retention.
   */
  readonly warmWindowMs?: number;
  /**
   * Longest time a written batch waits for the log's sync, ms (group commit). Each commit writes
   * its batch at once, sharing the write with the commits arriving while one is under way, so a
   * killed process loses none of them; the sync guards against a crash of the machine.
   */
  readonly syncIntervalMs: number;
  readonly logger: Logger;
}

/** What one commit of an appender did. */
export interface AppendResult {
  readonly appended: number;
  /** Samples refused (older than the series' newest, or another value at its time), by reason. */
  readonly rejected: ReadonlyMap<string, number>;
  /**
   * Resolves once the batch's records (and every record appended before them) are written to the
   * log, so a killed process cannot lose them (the disk's sync follows within `syncIntervalMs`);
   * rejects when the log cannot be written (the records stay queued for the next write). Commits
   * arriving while a write is under way share the next one.
   */
  readonly written: Promise<void>;
}

/** Samples one commit appended (rejected ones left out), in the order they were added. */
export interface AppendedBatch {
  readonly labels: readonly Labels[];
  readonly t: readonly number[];
  readonly v: readonly number[];
  /** Staleness markers (their `v` is NaN). */
  readonly stale: readonly boolean[];
}

/** Told of every committed batch, after it is applied and logged (remote write); must not throw. */
export type AppendListener = (batch: AppendedBatch) => void;

/** Closed chunks in memory that start a flush to disk before the next checkpoint. */
const FLUSH_AT_CHUNKS = 4096;
export const DEFAULT_WARM_WINDOW_MS = 3 * 3_600_000;

/**
 * The metric store on disk. Series and their newest samples are in memory (see
 * {@link MemoryStore}); closed chunks move to the chunk database (`metrics-chunks/`, see
 * {@link ChunkDatabase}), read back on demand, so memory follows the number of series rather than
 * the retention. Every committed batch is written at once to a write-ahead log on the shared
 * storage floor (checksummed records, torn tail cut off on start, synced on an interval), and its
 * commit says when the write has completed. `checkpoint` drops what the retention no longer
 * keeps, writes the closed chunks not yet on disk, waits for the database's sync, and rolls the
 * log into a checkpoint of what is only in memory (open chunks, labels of new series): it writes
 * what is new, never the whole store. Start-up reads the series, the chunk descriptors and the
 * checkpoint, then replays the log, a slice per turn of the event loop.
 */
export class MetricStorage implements Queryable {
  private generation: number;
  private readonly appendListeners: AppendListener[] = [];
  private background: Promise<void> | undefined;

  private constructor(
    readonly store: MemoryStore,
    private readonly files: LogFiles,
    private readonly log: AppendLog,
    private readonly options: MetricStorageOptions,
    readonly recovery: LogRecovery,
    /** Series written to the log (or the checkpoint) already. */
    private readonly logged: Set<number>,
    private readonly db: ChunkDatabase,
    private readonly flusher: ChunkFlusher,
    /** The values the log's records are XORed with, as its replay left them. */
    private readonly chain: SampleChain,
  ) {
    this.generation = recovery.generation;
  }

  static async open(options: MetricStorageOptions): Promise<MetricStorage> {
    await mkdir(options.dir, { recursive: true });
    const store = new MemoryStore();
    const chunksDir = join(options.dir, CHUNKS_DIR);
    await setAsideIfDamaged(chunksDir, options.logger);
    const db = ChunkDatabase.open(chunksDir);
    const flusher = new ChunkFlusher(store.memory, db);
    await loadChunkDatabase(store, db, flusher);
    store.memory.attachDisk(flusher, db, chunksDir, new ColdChunkIndex(db));
    store.listen({
      seriesCreated: (series) => flusher.seriesCreated(series.id, encodeLabels(series.labels)),
      seriesDropped: (ids) => flusher.seriesDropped(ids),
    });
    // A commit waits for its write, not for the disk's sync: the log is synced on the interval.
    const files = new LogFiles(options.dir, 'metrics', true);
    const logged = new Set<number>();
    const chain = new SampleChain();
    let replayed = 0;
    let unlabelled = 0;
    const recovery = await loadLogState(
      files,
      {
        what: 'metric store',
        prepareSnapshot: inflateRecord,
        applySnapshot: (payload) => {
          // Series the chunk database named need not have their labels decoded again.
          const record = decodeRecord(payload, undefined, (id) => store.byId(id) !== undefined);
          if (record.kind === 'snapshot') {
            // A checkpoint of every chunk, as earlier versions wrote: its closed chunks go to disk.
            for (const s of record.series) {
              store.create(s.labels, s.id).importChunks(s.chunks);
              logged.add(s.id);
            }
            return record.series.length;
          }
          if (record.kind !== 'heads') throw new Error('not a snapshot record');
          for (const s of record.series) {
            const series = store.byId(s.id) ?? (s.labels && store.create(s.labels, s.id));
            if (series === undefined) {
              unlabelled++;
              continue;
            }
            // Chunks that reached the disk after the checkpoint are read from there.
            const newer = s.chunks.filter((c) => c.minT > series.lastTimestamp);
            const last = s.chunks.at(-1);
            series.importChunks(newer, newer.at(-1) === last ? s.open : undefined);
            logged.add(s.id);
          }
          return record.series.length;
        },
        applyLog: (payload) => {
          const record = decodeRecord(payload, chain);
          if (record.kind === 'series') {
            for (const r of record.records) {
              if (store.byId(r.id) === undefined) store.create(r.labels, r.id);
              logged.add(r.id);
            }
          } else if (record.kind === 'samples') {
            const { ids, t, v, stale } = record.batch;
            for (let i = 0; i < ids.length; i++) {
              try {
                store.byId(ids[i])?.append(t[i], v[i], stale[i]);
              } catch (error) {
                if (!(error instanceof SampleRejectedError)) throw error;
              }
            }
            replayed += ids.length;
          } else throw new Error('snapshot record in the log');
        },
      },
      options.logger,
    );
    if (unlabelled > 0) {
      options.logger.warn('Series of the checkpoint without labels were left out', {
        series: unlabelled,
      });
    }
    // Series read from the chunk database are known to a restart without the log.
    for (const series of store.all()) logged.add(series.id);
    await files.removeStale(recovery.generation);
    const handle = await files.openLog(recovery.generation, false);
    const log = new AppendLog(
      handle,
      recovery.logBytes,
      options.syncIntervalMs,
      options.logger,
      'metric store log',
      files.durability,
    );
    options.logger.debug('Metric store loaded', {
      series: store.seriesCount,
      replayed_samples: replayed,
    });
    return new MetricStorage(store, files, log, options, recovery, logged, db, flusher, chain);
  }

  /** Collects samples to append together; nothing is visible or logged before `commit`. */
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
   * Drops what the retention no longer keeps (whole chunks, by time and then by size) and series
   * left empty, writes the closed chunks not yet on disk and waits for their sync, then rolls the
   * log into a checkpoint of the chunks only in memory, and makes chunks on disk older than the
   * warm window cold. Returns the checkpoint's size in bytes.
   */
  async checkpoint(nowMs: number): Promise<number> {
    let bytes = 0;
    await this.log.run(async () => {
      this.applyRetention(nowMs);
      await this.flusher.flush();
      await this.flusher.synced();
      const checkpointedSeq = this.flusher.writtenSeq;
      this.logged.clear();
      const generation = this.generation + 1;
      const items: HeadSeries[] = [];
      for (const s of this.store.all()) {
        this.logged.add(s.id);
        items.push({
          id: s.id,
          labels: s.labels,
          chunks: s.memoryChunks(),
          open: s.openChunkState(),
        });
      }
      // The next log file's records decode from its own records alone.
      this.chain.reset();
      bytes = await rollSnapshot(this.log, this.files, generation, items, encodeHeadSeries);
      this.generation = generation;
      this.flusher.checkpointed(checkpointedSeq);
      await this.ageOut(nowMs);
    });
    return bytes;
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

  /** Bytes of the chunk database's file (it grows, and reuses the pages of dropped chunks). */
  get databaseFileBytes(): number {
    return this.db.fileBytes;
  }

  private applyRetention(nowMs: number): void {
    let cutoff = nowMs - this.options.retentionMs;
    const maxBytes = this.options.retentionBytes ?? 0;
    if (maxBytes > 0) {
      const bySize = this.flusher.cutoffForSize(maxBytes - this.log.bytes);
      // Chunks ending at or before the newest time of the batches over the limit go.
      if (bySize !== undefined) cutoff = Math.max(cutoff, bySize + 1);
    }
    this.store.truncateBefore(cutoff);
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

  async close(): Promise<void> {
    await this.log.close();
    await this.flusher.synced().catch(() => undefined);
    await this.db.close();
  }
}

/**
 * Samples of one scrape, rule evaluation or remote-write request, appended and logged together:
 * `commit` applies them at once and starts their write; its `written` says when it has completed.
 */
export class MetricAppender {
  private readonly labels: Labels[] = [];
  private readonly t: number[] = [];
  private readonly v: number[] = [];
  private readonly stale: boolean[] = [];

  constructor(private readonly storage: MetricStorage) {}

  add(labels: Labels, t: number, v: number): this {
    this.labels.push(labels);
    this.t.push(t);
    this.v.push(v);
    this.stale.push(false);
    return this;
  }

  /** A staleness marker: the series ended (its target or rule stopped producing it). */
  addStale(labels: Labels, t: number): this {
    this.labels.push(labels);
    this.t.push(t);
    this.v.push(NaN);
    this.stale.push(true);
    return this;
  }

  commit(): AppendResult {
    return this.storage.write(this.labels, this.t, this.v, this.stale);
  }
}
