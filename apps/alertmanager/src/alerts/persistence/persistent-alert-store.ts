import type { Logger } from '../../logging/logger';
import type { AlertListener, AlertStore } from '../alert-store';
import type { Alert } from '../alert.model';
import type { MemoryAlertStore } from '../memory-alert-store';
import type { Journal, LogRecovery } from '../../storage';

/** What loading the alert store found on disk; a torn or corrupt tail is reported here. */
export type AlertRecovery = LogRecovery;

/** Tuning of {@link PersistentAlertStore}. */
export interface PersistenceOptions {
  /** Longest time a change the API does not wait for (a GC deletion) waits for its fsync. */
  syncIntervalMs: number;
  /** The log is compacted into a snapshot once it is this big and twice the last snapshot. */
  compactAfterBytes: number;
}

/**
 * An {@link AlertStore} that survives restarts: the in-memory store answers every read, and each
 * change is recorded in a {@link Journal} whose log is compacted into a snapshot when it grows. `put` resolves once the change is on disk, so an acknowledged alert survives `kill -9`.
 *
 * Alerts accepted during one I/O turn go to the log as one record, committed with one fsync that
 * concurrent requests share (group commit). Subscribers get them right after the write starts,
 * as upstream's dispatcher reads them from a channel: routing runs while the disk syncs.
 */
export class PersistentAlertStore implements AlertStore {
  private compacting = false;
  private readonly listeners = new Set<AlertListener>();
  private pending: Alert[] = [];
  /** Settles the puts gathered in `pending` once their record is on disk; set while gathering. */
  private gathering: { done: Promise<void>; settle: (commit: Promise<void>) => void } | undefined;

  constructor(
    private readonly memory: MemoryAlertStore,
    private readonly journal: Journal<Alert>,
    private readonly options: PersistenceOptions,
    private readonly logger: Logger,
    /** What loading found, including any torn tail it ignored. */
    readonly recovery: AlertRecovery,
  ) {}

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
    gathering?.settle(this.journal.commit(batch));
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
    this.journal.forget(removed.map((a) => a.fingerprint));
    return removed;
  }

  /** Makes every change so far durable. */
  flush(): Promise<void> {
    this.deliver();
    return this.journal.sync();
  }

  /**
   * Writes the whole state as a new snapshot generation and starts an empty log for it. The state
   * and the queued records are taken at the same instant, so nothing is lost or counted twice.
   */
  async compact(): Promise<void> {
    this.deliver();
    await this.journal.compact(() => this.memory.list());
  }

  /** Flushes and closes the files; the store must not be written to afterwards. */
  close(): Promise<void> {
    this.deliver();
    return this.journal.close();
  }

  private compactIfDue(): void {
    const bytes = this.journal.logBytes;
    if (this.compacting || bytes < this.options.compactAfterBytes) return;
    if (bytes < 2 * this.journal.snapshotBytes) return;
    this.compacting = true;
    this.compact()
      .catch((error: Error) =>
        this.logger.error('Compacting the alert log failed', { err: error.message }),
      )
      .finally(() => (this.compacting = false));
  }
}
