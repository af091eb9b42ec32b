import type { FileHandle } from 'node:fs/promises';
import type { Logger } from '../logging/logger';
import { frame } from './record-framing';

/**
 * An append-only file of framed records with group commit: `append` only queues the record, and
 * a timer writes and fsyncs everything queued at most `syncIntervalMs` later, so a crash loses at
 * most that much acknowledged work while a burst of writes costs one fsync. Every file operation
 * runs through one queue, so compaction can swap the file without racing a flush.
 */
export class AppendLog {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private timer: NodeJS.Timeout | undefined;
  private queue: Promise<void> = Promise.resolve();
  /** File operations started and not yet settled. */
  private running = 0;
  /** The sync started by `commit` that is writing now, and the one every later commit joins. */
  private syncing: Promise<void> | undefined;
  private following: Promise<void> | undefined;

  constructor(
    private handle: FileHandle,
    /** Bytes already in the file. */
    private fileBytes: number,
    private readonly syncIntervalMs: number,
    private readonly logger: Logger,
    /** Names the file in error messages, e.g. `alert log`. */
    private readonly what = 'log',
    /** True when the file is opened so that each write is durable as it completes (`O_DSYNC`). */
    private readonly durableWrites = false,
  ) {}

  /** Bytes in the file plus bytes waiting to be written. */
  get bytes(): number {
    return this.fileBytes + this.pendingBytes;
  }

  /** Queues one record; it is durable after the next sync. */
  append(payload: Buffer): void {
    const framed = frame(payload);
    this.pending.push(framed);
    this.pendingBytes += framed.length;
    this.timer ??= setTimeout(() => this.flushInBackground(), this.syncIntervalMs).unref();
  }

  /**
   * Appends one record and resolves once it is on disk. Concurrent commits share fsyncs: each
   * write takes every record queued before it, so callers waiting together pay for one sync.
   */
  commit(payload: Buffer): Promise<void> {
    this.append(payload);
    if (!this.syncing) return this.startSync();
    // A sync is writing: wait for it, then share one more sync with every commit arriving
    // meanwhile, rather than queueing one sync per commit behind it.
    this.following ??= this.syncing.then(ignore, ignore).then(() => {
      this.following = undefined;
      return this.startSync();
    });
    return this.following;
  }

  private startSync(): Promise<void> {
    const sync: Promise<void> = this.flush().finally(() => {
      if (this.syncing === sync) this.syncing = undefined;
    });
    this.syncing = sync;
    return sync;
  }

  /** Writes and fsyncs everything queued so far; resolves once it is on disk. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    return this.run(() => this.writePending());
  }

  // A failed background flush is already logged and its records kept for the next attempt.
  private flushInBackground(): void {
    this.flush().catch(() => undefined);
  }

  /**
   * Runs `task` after every file operation queued before it. When none is running, the task
   * starts at once rather than in a later microtask, so a commit's write is already on its way
   * to the disk while the caller goes on (routing the alerts it just logged, say).
   */
  run(task: () => Promise<void>): Promise<void> {
    const next = this.running === 0 ? task() : this.queue.then(task);
    this.running++;
    const settled = next.then(
      () => void this.running--,
      () => void this.running--,
    );
    this.queue = settled;
    return next;
  }

  /** Forgets queued records (they are covered by a snapshot taken at the same moment). */
  discardPending(): void {
    this.pending = [];
    this.pendingBytes = 0;
  }

  /** Continues in another file (after compaction); returns the previous handle to close. */
  replaceFile(handle: FileHandle, bytes: number): FileHandle {
    const previous = this.handle;
    this.handle = handle;
    this.fileBytes = bytes;
    return previous;
  }

  /** Flushes and closes the file. */
  async close(): Promise<void> {
    await this.flush();
    await this.run(() => this.handle.close());
  }

  private async writePending(): Promise<void> {
    if (this.pending.length === 0) return;
    const batch = this.pending;
    const bytes = this.pendingBytes;
    this.discardPending();
    try {
      await this.handle.write(Buffer.concat(batch, bytes));
      if (!this.durableWrites) await this.handle.datasync();
      this.fileBytes += bytes;
    } catch (error) {
      // Keep the records for the next attempt; a full disk may clear up.
      this.pending = [...batch, ...this.pending];
      this.pendingBytes += bytes;
      this.logger.error(`Writing the ${this.what} failed`, { err: (error as Error).message });
      this.timer ??= setTimeout(() => this.flushInBackground(), this.syncIntervalMs).unref();
      throw error;
    }
  }
}

const ignore = (): void => undefined;
