import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Logger } from '../logging/logger';
import { NflogFile } from './nflog-file';
import { nflogKey, type NflogEntry, type ReceiverKey } from './nflog-entry';
import type { NflogMetrics } from './nflog-metrics';

/** Upstream's default `--data.retention`: 120h. */
export const DEFAULT_NFLOG_RETENTION = 120 * 60 * 60 * 1000;

/** The file name of the notification log under `--storage.path`, as upstream's. */
export const NFLOG_FILE_NAME = 'nflog';

/** How to open a {@link NotificationLog}. */
export interface NotificationLogOptions {
  /** `--storage.path`; undefined keeps the log in memory only (tests). */
  storagePath?: string;
  /** `--data.retention`, milliseconds. */
  retention?: number;
  /** Used to drop entries that expired while the server was down. */
  now: number;
  logger: Logger;
  metrics?: NflogMetrics;
}

/**
 * What was notified last, per group and integration: the dedup stage reads it, the
 * set-notifies stage writes it. It outlives config reloads and, under `--storage.path`, restarts:
 * every write is appended and fsync'd before the flush completes, and maintenance compacts.
 */
export class NotificationLog {
  private readonly entries = new Map<string, NflogEntry>();
  private readonly retention: number;

  private constructor(
    private readonly file: NflogFile | undefined,
    private readonly logger: Logger,
    private readonly metrics: NflogMetrics | undefined,
    retention: number,
  ) {
    this.retention = retention;
  }

  /** Loads the log from disk (ignoring torn lines and expired entries) and compacts it. */
  static async open(options: NotificationLogOptions): Promise<NotificationLog> {
    const file = options.storagePath
      ? new NflogFile(join(options.storagePath, NFLOG_FILE_NAME))
      : undefined;
    const log = new NotificationLog(
      file,
      options.logger,
      options.metrics,
      options.retention ?? DEFAULT_NFLOG_RETENTION,
    );
    if (file) {
      const { entries, skipped } = file.read();
      if (skipped > 0) {
        log.logger.warn('Ignored corrupt notification log lines', { file: file.path, skipped });
      }
      for (const entry of entries) log.entries.set(nflogKey(entry.groupKey, entry.receiver), entry);
      log.gc(options.now);
      // Rewriting at once also removes a torn tail, so later appends start on a clean line.
      await log.snapshot();
    }
    return log;
  }

  /** Number of live entries. */
  get size(): number {
    return this.entries.size;
  }

  /** The entry of a group for one integration, if any. */
  query(groupKey: string, receiver: ReceiverKey): NflogEntry | undefined {
    const started = performance.now();
    this.metrics?.queries.inc();
    const entry = this.entries.get(nflogKey(groupKey, receiver));
    this.metrics?.queryDuration.observe((performance.now() - started) / 1000);
    return entry;
  }

  /**
   * Records a successful notification at `now`. It expires after `expiry` (upstream passes
   * twice the repeat interval), or after the retention when that is shorter or `expiry` is 0.
   */
  async log(
    receiver: ReceiverKey,
    groupKey: string,
    firing: readonly string[],
    resolved: readonly string[],
    expiry: number,
    now: number,
  ): Promise<void> {
    const ttl = expiry > 0 && expiry < this.retention ? expiry : this.retention;
    const entry: NflogEntry = {
      groupKey,
      receiver: { ...receiver },
      timestamp: now,
      firingAlerts: [...firing],
      resolvedAlerts: [...resolved],
      expiresAt: now + ttl,
    };
    this.entries.set(nflogKey(groupKey, receiver), entry);
    await this.file?.append(entry);
  }

  /** Drops entries expired at `now`; returns how many. */
  gc(now: number): number {
    const started = performance.now();
    let removed = 0;
    for (const [key, entry] of this.entries) {
      if (entry.expiresAt <= now) {
        this.entries.delete(key);
        removed++;
      }
    }
    this.metrics?.gcDuration.observe((performance.now() - started) / 1000);
    return removed;
  }

  /** Compacts the file to the live entries; returns its size in bytes (0 in memory). */
  async snapshot(): Promise<number> {
    if (!this.file) return 0;
    const started = performance.now();
    const size = await this.file.compact(this.entries.values());
    this.metrics?.snapshotDuration.observe((performance.now() - started) / 1000);
    this.metrics?.snapshotSize.set(size);
    return size;
  }

  /** Upstream's periodic maintenance (`--data.maintenance-interval`): GC, then snapshot. */
  async maintenance(now: number): Promise<void> {
    this.metrics?.maintenance.inc();
    try {
      this.gc(now);
      await this.snapshot();
    } catch (err) {
      this.metrics?.maintenanceErrors.inc();
      this.logger.error('Running maintenance failed', { err: String(err) });
    }
  }

  /** Final snapshot and close, on shutdown. */
  async close(now: number): Promise<void> {
    await this.maintenance(now);
    await this.file?.close();
  }
}
