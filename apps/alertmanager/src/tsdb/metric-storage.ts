import { mkdir } from 'node:fs/promises';
import type { Logger } from '../logging/logger';
import {
  AppendLog,
  loadLogState,
  LOG_WRITES_ARE_DURABLE,
  LogFiles,
  rollSnapshot,
  type LogRecovery,
} from '../storage';
import type { Labels } from './labels';
import { MemoryStore } from './memory-store';
import { SampleRejectedError, type MemorySeries } from './memory-series';
import type { Querier, Queryable } from './queryable';
import {
  decodeRecord,
  encodeSamples,
  encodeSeries,
  encodeSnapshotSeries,
  type SeriesRecord,
} from './wal/wal-records';

export interface MetricStorageOptions {
  /** The storage directory (`--storage.path`); the files are `metrics.snapshot` and `metrics-N.log`. */
  readonly dir: string;
  /** How long samples are kept (`--storage.tsdb.retention.time`). */
  readonly retentionMs: number;
  /** Longest time an appended batch waits for its write (group commit). */
  readonly syncIntervalMs: number;
  readonly logger: Logger;
}

/** What one commit of an appender did. */
export interface AppendResult {
  readonly appended: number;
  /** Samples refused (older than the series' newest, or another value at its time), by reason. */
  readonly rejected: ReadonlyMap<string, number>;
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

/**
 * The metric store on disk: series and samples in memory (see {@link MemoryStore}) and every
 * appended batch in a write-ahead log on the shared storage floor (checksummed records, torn
 * tail cut off on start), so a restart keeps the samples that `for` and `rate` windows need.
 * `checkpoint` drops what is older than the retention and rolls the log into a snapshot of the
 * compressed chunks.
 */
export class MetricStorage implements Queryable {
  private generation: number;
  private readonly appendListeners: AppendListener[] = [];

  private constructor(
    readonly store: MemoryStore,
    private readonly files: LogFiles,
    private readonly log: AppendLog,
    private readonly options: MetricStorageOptions,
    readonly recovery: LogRecovery,
    /** Series written to the log (or the snapshot) already. */
    private readonly logged: Set<number>,
  ) {
    this.generation = recovery.generation;
  }

  static async open(options: MetricStorageOptions): Promise<MetricStorage> {
    await mkdir(options.dir, { recursive: true });
    const store = new MemoryStore();
    const files = new LogFiles(options.dir, 'metrics');
    const logged = new Set<number>();
    const recovery = await loadLogState(
      files,
      {
        what: 'metric store',
        applySnapshot: (payload) => {
          const record = decodeRecord(payload);
          if (record.kind !== 'snapshot') throw new Error('not a snapshot record');
          for (const s of record.series) {
            store.create(s.labels, s.id).importChunks(s.chunks);
            logged.add(s.id);
          }
          return record.series.length;
        },
        applyLog: (payload) => {
          const record = decodeRecord(payload);
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
          } else throw new Error('snapshot record in the log');
        },
      },
      options.logger,
    );
    await files.removeStale(recovery.generation);
    const handle = await files.openLog(recovery.generation, false);
    const log = new AppendLog(
      handle,
      recovery.logBytes,
      options.syncIntervalMs,
      options.logger,
      'metric store log',
      LOG_WRITES_ARE_DURABLE,
    );
    return new MetricStorage(store, files, log, options, recovery, logged);
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
    for (let i = 0; i < labels.length; i++) {
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
    if (batch.ids.length > 0) this.log.append(encodeSamples(batch));
    if (told !== undefined && told.length > 0) {
      const appended = { labels: told, t: batch.t, v: batch.v, stale: batch.stale };
      for (const listener of this.appendListeners) listener(appended);
    }
    return { appended: batch.ids.length, rejected };
  }

  /**
   * Drops samples older than the retention (whole chunks) and series left empty, then writes the
   * store as a snapshot and starts a new log. Returns the snapshot's size in bytes.
   */
  async checkpoint(nowMs: number): Promise<number> {
    let bytes = 0;
    await this.log.run(async () => {
      this.store.truncateBefore(nowMs - this.options.retentionMs);
      this.logged.clear();
      const generation = this.generation + 1;
      const items = [...this.store.all()].map((s) => {
        this.logged.add(s.id);
        return { id: s.id, labels: s.labels, chunks: s.exportChunks() };
      });
      bytes = await rollSnapshot(this.log, this.files, generation, items, encodeSnapshotSeries);
      this.generation = generation;
    });
    return bytes;
  }

  /** Bytes of the log since the last snapshot. */
  get logBytes(): number {
    return this.log.bytes;
  }

  /** Makes everything appended so far durable. */
  flush(): Promise<void> {
    return this.log.flush();
  }

  close(): Promise<void> {
    return this.log.close();
  }
}

/** Samples of one scrape or rule evaluation, appended and logged together. */
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
