import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Logger } from '../logging/logger';
import { openJournal, type Journal } from '../storage';
import { readLegacyNflog, removeLegacyNflog } from './legacy-nflog-file';
import { NFLOG_CODEC } from './nflog-codec';
import { nflogKey, type NflogEntry, type ReceiverKey } from './nflog-entry';
import type { NflogMetrics } from './nflog-metrics';

/** Upstream's default `--data.retention`: 120h. */
export const DEFAULT_NFLOG_RETENTION = 120 * 60 * 60 * 1000;

/**
 * The base name of the notification log's files under `--storage.path`, as upstream's:
 * `nflog.snapshot` and `nflog-N.log`.
 */
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
 * every write is in its {@link Journal} on disk before the flush completes (concurrent flushes
 * share one write), and maintenance compacts the journal into a snapshot.
 */
export class NotificationLog {
  private readonly entries = new Map<string, NflogEntry>();
  private readonly retention: number;
  private readonly listeners: ((entry: NflogEntry) => void)[] = [];

  private constructor(
    private journal: Journal<NflogEntry> | undefined,
    private readonly logger: Logger,
    private readonly metrics: NflogMetrics | undefined,
    retention: number,
  ) {
    this.retention = retention;
  }

  /**
   * Loads the log from disk (a torn or corrupt tail is reported and ignored, expired entries are
   * dropped); a notification log in the single-file form of version 0.1 is moved into the
   * journal.
   */
  static async open(options: NotificationLogOptions): Promise<NotificationLog> {
    const log = new NotificationLog(
      undefined,
      options.logger,
      options.metrics,
      options.retention ?? DEFAULT_NFLOG_RETENTION,
    );
    if (options.storagePath) await log.load(options.storagePath, options.now);
    return log;
  }

  private async load(dir: string, now: number): Promise<void> {
    const legacyPath = join(dir, NFLOG_FILE_NAME);
    let legacy = await readLegacyNflog(legacyPath);
    if (legacy && legacy.skipped > 0 && legacy.entries.length === 0) {
      // Not ours (upstream's protobuf file, say): leave it alone rather than delete it.
      this.logger.warn('Left a notification log file this server cannot read as it is', {
        file: legacyPath,
      });
      legacy = undefined;
    } else if (legacy && legacy.skipped > 0) {
      this.logger.warn('Ignored corrupt notification log lines', {
        file: legacyPath,
        skipped: legacy.skipped,
      });
    }
    for (const entry of legacy?.entries ?? []) this.remember(entry);
    const { journal } = await openJournal({
      dir,
      name: NFLOG_FILE_NAME,
      what: 'notification log',
      logWhat: 'notification log',
      codec: NFLOG_CODEC,
      restore: (entry) => this.remember(entry),
      forget: (key) => this.entries.delete(key),
      syncIntervalMs: 200,
      logger: this.logger,
    });
    this.journal = journal;
    this.gc(now);
    if (legacy) {
      await this.snapshot();
      await removeLegacyNflog(legacyPath);
      this.logger.info('Moved the notification log into its journal', {
        entries: this.entries.size,
      });
    }
  }

  private remember(entry: NflogEntry): void {
    this.entries.set(nflogKey(entry.groupKey, entry.receiver), entry);
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
   * The entry that records a successful notification at `now`. It expires after `expiry`
   * (upstream passes twice the repeat interval), or after the retention when that is shorter or
   * `expiry` is 0.
   */
  entryFor(
    receiver: ReceiverKey,
    groupKey: string,
    firing: readonly string[],
    resolved: readonly string[],
    expiry: number,
    now: number,
  ): NflogEntry {
    const ttl = expiry > 0 && expiry < this.retention ? expiry : this.retention;
    return {
      groupKey,
      receiver: { ...receiver },
      timestamp: now,
      firingAlerts: [...firing],
      resolvedAlerts: [...resolved],
      expiresAt: now + ttl,
    };
  }

  /** Records a successful notification (the arguments of {@link entryFor}). */
  async log(...notification: Parameters<NotificationLog['entryFor']>): Promise<void> {
    await this.logEntry(this.entryFor(...notification));
  }

  /**
   * Records an entry made by {@link entryFor} as a notification this replica sent: durable
   * before it resolves, then the listeners are told.
   */
  async logEntry(entry: NflogEntry): Promise<void> {
    this.entries.set(nflogKey(entry.groupKey, entry.receiver), entry);
    await this.journal?.commit([entry]);
    for (const listener of this.listeners) listener(entry);
  }

  /**
   * Takes an entry as another replica logged it, with upstream's merge rule: it replaces the
   * one held when that is older or missing. Durable before it resolves; true when it changed
   * anything. Listeners are not told.
   */
  async merge(entry: NflogEntry): Promise<boolean> {
    const key = nflogKey(entry.groupKey, entry.receiver);
    const held = this.entries.get(key);
    if (held && held.timestamp >= entry.timestamp) return false;
    this.entries.set(key, entry);
    await this.journal?.commit([entry]);
    return true;
  }

  /** Calls `listener` with every entry logged here, once it is durable. */
  onLog(listener: (entry: NflogEntry) => void): void {
    this.listeners.push(listener);
  }

  /** Drops entries expired at `now`; returns how many. */
  gc(now: number): number {
    const started = performance.now();
    const removed: string[] = [];
    for (const [key, entry] of this.entries) {
      if (entry.expiresAt <= now) {
        this.entries.delete(key);
        removed.push(key);
      }
    }
    this.journal?.forget(removed);
    this.metrics?.gcDuration.observe((performance.now() - started) / 1000);
    return removed.length;
  }

  /** Compacts the journal into a snapshot of the live entries; returns its size (0 in memory). */
  async snapshot(): Promise<number> {
    if (!this.journal) return 0;
    const started = performance.now();
    const size = await this.journal.compact(() => this.entries.values());
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
    await this.journal?.close();
  }
}
