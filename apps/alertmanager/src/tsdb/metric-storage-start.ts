import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Registry } from 'prom-client';
import type { Logger } from '../logging/logger';
import { AppendLog, loadLogState, LogFiles, type LogRecovery } from '../storage';
import type { CheckpointHook } from './checkpoint-stages';
import { checkpointTestHook } from './checkpoint-test-hook';
import { MemoryStore } from './memory-store';
import { MetricLogReplay } from './metric-log-replay';
import { ChunkDatabase } from './disk/chunk-database';
import { ChunkFlusher } from './disk/chunk-flusher';
import { ColdChunkIndex } from './disk/cold-chunk-index';
import { CHUNKS_DIR } from './disk/early-verification';
import { loadChunkDatabase, setAsideIfDamaged } from './disk/load-chunk-database';
import { SampleChain } from './wal/sample-chain';
import { IdSet } from './id-set';

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
  /** Where the checkpoint's metrics (`prometheus_tsdb_checkpoint_*`, `prometheus_tsdb_wal_*`) are shown. */
  readonly registry?: Registry;
  /**
   * The oldest log segment a reader of the log (remote write) still has to read, found before the
   * store opens: a start keeps the segments from it on, where it would remove every segment older
   * than the checkpoint's; checkpoints then keep what the readers hold (see `holdLog`).
   */
  readonly keepLogFrom?: number;
  /**
   * Called at each stage of a checkpoint (tests pause or fail it there); by default the test hook
   * of the environment, if any (see `checkpointTestHook`).
   */
  readonly checkpointHook?: CheckpointHook;
  /**
   * Called once the store can be read, before its checkpoint and log are replayed (its series and
   * the chunks on disk are loaded): readers started then (query threads) copy its index on
   * another core while the rest loads, instead of all of it afterwards.
   */
  readonly onReadable?: (store: MemoryStore) => void;
}

/** A metric store as its start leaves it, for `MetricStorage` to run. */
export interface LoadedMetricStorage {
  readonly store: MemoryStore;
  readonly files: LogFiles;
  /** The last segment, open for appending after its sound records. */
  readonly log: AppendLog;
  readonly recovery: LogRecovery;
  /** Series written to the log (or the checkpoint) already. */
  readonly logged: IdSet;
  readonly db: ChunkDatabase;
  readonly flusher: ChunkFlusher;
  /** The values the log's records are XORed with, as its replay left them. */
  readonly chain: SampleChain;
  readonly hook: CheckpointHook | undefined;
}

/**
 * A metric store's start-up: the chunk database (checked, set aside when damaged) gives the
 * series and the chunk descriptors, the checkpoint and every log segment from its generation on
 * are replayed, the last segment is opened for appending; the rings of recent samples are filled
 * in slices afterwards.
 */
export async function loadMetricStorage(
  options: MetricStorageOptions,
): Promise<LoadedMetricStorage> {
  await mkdir(options.dir, { recursive: true });
  const hook = options.checkpointHook ?? checkpointTestHook(process.env, options.logger);
  const store = new MemoryStore();
  const chunksDir = join(options.dir, CHUNKS_DIR);
  await setAsideIfDamaged(chunksDir, options.logger);
  const db = ChunkDatabase.open(chunksDir);
  const flusher = new ChunkFlusher(store.memory, db, hook && (() => hook('chunk-flush')));
  await loadChunkDatabase(store, db, flusher);
  store.memory.attachDisk(flusher, db, chunksDir, new ColdChunkIndex(db));
  options.onReadable?.(store);
  const logged = new IdSet();
  store.listen({
    seriesCreated: (series) => flusher.seriesCreated(series.id, series.labels),
    seriesDropped: (ids) => {
      flusher.seriesDropped(ids);
      for (const id of ids) logged.delete(id);
    },
  });
  // A commit waits for its write, not for the disk's sync: the log is synced on the interval.
  const files = new LogFiles(options.dir, 'metrics', { syncOnInterval: true, segmented: true });
  const chain = new SampleChain();
  const replay = new MetricLogReplay(store, chain, logged);
  const recovery = await loadLogState(files, replay, options.logger);
  if (replay.unlabelled > 0) {
    options.logger.warn('Series of the checkpoint without labels were left out', {
      series: replay.unlabelled,
    });
  }
  // Series read from the chunk database are known to a restart without the log.
  for (const series of store.all()) logged.add(series.id);
  await files.removeStale(recovery.snapshotGeneration, options.keepLogFrom);
  // New records follow the last segment's, XORed along the chain its replay left.
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
    replayed_samples: replay.replayed,
    log_segments: recovery.segments,
  });
  return { store, files, log, recovery, logged, db, flusher, chain, hook };
}
