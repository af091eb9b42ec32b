import type { Logger } from '../../logging/logger';
import type { AlertListener, AlertStore } from '../alert-store';
import type { Alert } from '../alert.model';
import type { MemoryAlertStore } from '../memory-alert-store';
import type { LogFiles } from './log-files';
import type { AppendLog } from './append-log';
import { encodeRecord } from './alert-codec';
import { rollSnapshot } from './roll-snapshot';
import type { AlertRecovery } from './load-alert-state';

/** Tuning of {@link PersistentAlertStore}. */
export interface PersistenceOptions {
  /** Longest time a change the API does not wait for (a GC deletion) waits for its fsync. */
  syncIntervalMs: number;
  /** The log is compacted into a snapshot once it is this big and twice the last snapshot. */
  compactAfterBytes: number;
}

/**
 * An {@link AlertStore} that survives restarts: the in-memory store answers every read, and each
 * change is appended to a log (see {@link AppendLog}) that is compacted into a snapshot when it
 * grows. `put` resolves once the change is on disk, so an acknowledged alert survives `kill -9`.
 *
 * Alerts accepted during one I/O turn go to the log as one record, committed with one fsync that
 * concurrent requests share (group commit). Subscribers get them right after the write starts,
 * as upstream's dispatcher reads them from a channel: routing runs while the disk syncs.
 */
export class PersistentAlertStore implements AlertStore {
  private compacting = false;
  private snapshotBytes: number;
  private readonly listeners = new Set<AlertListener>();
  private pending: Alert[] = [];
  /** Settles the puts gathered in `pending` once their record is on disk; set while gathering. */
  private gathering: { done: Promise<void>; settle: (commit: Promise<void>) => void } | undefined;

  constructor(
    private readonly memory: MemoryAlertStore,
    private readonly files: LogFiles,
    private readonly log: AppendLog,
    private generation: number,
    private readonly options: PersistenceOptions,
    private readonly logger: Logger,
    /** What loading found, including any torn tail it ignored. */
    readonly recovery: AlertRecovery,
  ) {
    this.snapshotBytes = recovery.snapshotBytes;
  }

  get size(): number {
    return this.memory.size;
  }

  /** Resolves once the alerts are on disk; rejects when the log cannot be written. */
  put(alerts: readonly Alert[]): Promise<void> {
    if (alerts.length === 0) return Promise.resolve();
    for (const alert of this.memory.merge(alerts)) this.pending.push(alert);
    if (!this.gathering) {
      let settle!: (commit: Promise<void>) => void;
      const done = new Promise<void>((resolve, reject) => {
        settle = (commit) => commit.then(resolve, reject);
      });
      this.gathering = { done, settle };
      setImmediate(() => this.deliver());
    }
    return this.gathering.done;
  }

  /** Commits the alerts accepted since the last delivery, then hands them to every subscriber. */
  private deliver(): void {
    const gathering = this.gathering;
    this.gathering = undefined;
    const batch = this.pending;
    if (batch.length === 0) {
      gathering?.settle(Promise.resolve());
      return;
    }
    this.pending = [];
    gathering?.settle(this.log.commit(encodeRecord({ put: batch })));
    for (const alert of batch) for (const listener of this.listeners) listener(alert);
    this.compactIfDue();
  }

  get(fingerprint: string): Alert | undefined {
    return this.memory.get(fingerprint);
  }

  list(): Iterable<Alert> {
    return this.memory.list();
  }

  subscribe(listener: AlertListener): () => void {
    // Deliver what is pending first, so the replay below is the only time the new listener
    // sees those alerts, and current listeners are not skipped.
    this.deliver();
    const own: AlertListener = (alert) => listener(alert);
    for (const alert of [...this.memory.list()]) own(alert);
    this.listeners.add(own);
    return () => this.listeners.delete(own);
  }

  gc(now: number, canRemove?: (alert: Alert) => boolean): Alert[] {
    this.deliver();
    const removed = this.memory.gc(now, canRemove);
    if (removed.length > 0)
      this.log.append(encodeRecord({ del: removed.map((a) => a.fingerprint) }));
    return removed;
  }

  /** Makes every change so far durable. */
  flush(): Promise<void> {
    this.deliver();
    return this.log.flush();
  }

  /**
   * Writes the whole state as a new snapshot generation and starts an empty log for it. The state
   * and the queued records are taken at the same instant, so nothing is lost or counted twice.
   */
  compact(): Promise<void> {
    this.deliver();
    return this.log.run(async () => {
      const generation = this.generation + 1;
      const bytes = await rollSnapshot(
        this.log,
        this.files,
        generation,
        this.memory.list(),
        (chunk) => encodeRecord({ put: chunk }),
      );
      this.generation = generation;
      this.snapshotBytes = bytes;
      this.logger.debug('Compacted the alert log', { generation, bytes });
    });
  }

  /** Flushes and closes the files; the store must not be written to afterwards. */
  close(): Promise<void> {
    this.deliver();
    return this.log.close();
  }

  private compactIfDue(): void {
    const bytes = this.log.bytes;
    if (this.compacting || bytes < this.options.compactAfterBytes) return;
    if (bytes < 2 * this.snapshotBytes) return;
    this.compacting = true;
    this.compact()
      .catch((error: Error) =>
        this.logger.error('Compacting the alert log failed', { err: error.message }),
      )
      .finally(() => (this.compacting = false));
  }
}
