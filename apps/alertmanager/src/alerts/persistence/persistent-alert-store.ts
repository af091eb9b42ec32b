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
  /** Longest time an acknowledged change waits for its fsync. Default 200 ms; at most 1 s. */
  syncIntervalMs: number;
  /** The log is compacted into a snapshot once it is this big and twice the last snapshot. */
  compactAfterBytes: number;
}

/**
 * An {@link AlertStore} that survives restarts: the in-memory store answers every read, and each
 * change is appended to a log (see {@link AppendLog}) that is compacted into a snapshot when it
 * grows. `put` resolves once the change is in memory; it is on disk within `syncIntervalMs`.
 *
 * Subscribers and the log get accepted alerts right after the current I/O turn rather than inside
 * `put`, as upstream's dispatcher reads them from a channel: the API answers first, and routing
 * and encoding run while the client prepares its next request.
 */
export class PersistentAlertStore implements AlertStore {
  private compacting = false;
  private snapshotBytes: number;
  private readonly listeners = new Set<AlertListener>();
  private pending: Alert[] = [];
  private scheduled = false;

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

  put(alerts: readonly Alert[]): Promise<void> {
    const stored = this.memory.merge(alerts);
    if (stored.length > 0) {
      for (const alert of stored) this.pending.push(alert);
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.deliver());
      }
    }
    return Promise.resolve();
  }

  /** Hands the alerts accepted since the last delivery to the log and every subscriber. */
  private deliver(): void {
    this.scheduled = false;
    const batch = this.pending;
    if (batch.length === 0) return;
    this.pending = [];
    this.log.append(encodeRecord({ put: batch }));
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
