import type { FileHandle } from 'node:fs/promises';
import type { Logger } from '../logging/logger';
import type { LogDurability } from './log-files';
import { FRAME_HEADER_BYTES, frameHeader } from './record-framing';

/**
 * An append-only file of framed records with group commit: `append` only queues the record, and
 * a timer writes and syncs everything queued at most `syncIntervalMs` later; `commit` and
 * `commitQueued` write at once and resolve once the write has completed, concurrent callers
 * sharing one write, so what a caller acknowledges survives a crash of the process while a burst
 * of commits costs one write. Whether a completed write is on disk or waits for the timer's sync
 * depends on the file's {@link LogDurability}. Every file operation runs through one queue, so
 * compaction can swap the file without racing a flush, and `roll` moves to a new file holding the
 * queue only for the writes of what is already queued.
 */
export class AppendLog {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** The next sync: set while records are queued, or written and not yet synced. */
  private timer: NodeJS.Timeout | undefined;
  private queue: Promise<void> = Promise.resolve();
  /** File operations started and not yet settled. */
  private running = 0;
  /** The write started by a commit that is under way, and the one every later commit joins. */
  private writing: Promise<void> | undefined;
  private following: Promise<void> | undefined;
  /** Written to the file and not yet synced (`sync-on-interval` only). */
  private unsynced = false;
  /** The sync and close of the file before the last roll; the next sync waits for it. */
  private retiring: Promise<void> = Promise.resolve();
  /** The last sync started (settled: its failure is reported by the flush that started it). */
  private syncing: Promise<void> = Promise.resolve();

  constructor(
    private handle: FileHandle,
    /** Bytes already in the file. */
    private fileBytes: number,
    private readonly syncIntervalMs: number,
    private readonly logger: Logger,
    /** Names the file in error messages, e.g. `alert log`. */
    private readonly what = 'log',
    /** How the file was opened (see {@link LogDurability}). */
    private readonly durability: LogDurability = 'sync-each-write',
  ) {}

  /** Bytes in the file plus bytes waiting to be written. */
  get bytes(): number {
    return this.fileBytes + this.pendingBytes;
  }

  /** Bytes of the file whose writes have completed: whole records, readable by others. */
  get writtenBytes(): number {
    return this.fileBytes;
  }

  /** Queues one record; it is durable after the next sync. */
  append(payload: Buffer): void {
    // Header and payload are written one after the other (`writev`), not copied into one buffer.
    this.pending.push(frameHeader(payload), payload);
    this.pendingBytes += FRAME_HEADER_BYTES + payload.length;
    this.syncLater();
  }

  /**
   * Appends one record and resolves once it is written. Concurrent commits share writes: each
   * write takes every record queued before it, so callers waiting together pay for one.
   */
  commit(payload: Buffer): Promise<void> {
    this.append(payload);
    return this.commitQueued();
  }

  /**
   * Writes every record queued so far and resolves once the write has completed: on disk, or with
   * `sync-on-interval` in the operating system's hands until the next sync. Rejects when the
   * write fails; the records then stay queued for the next one. The write starts at once unless
   * one is under way: then every caller arriving meanwhile shares the next write.
   */
  commitQueued(): Promise<void> {
    if (!this.writing) return this.startWrite();
    // A write is under way: wait for it, then share one more write with every commit arriving
    // meanwhile, rather than queueing one write per commit behind it.
    this.following ??= this.writing.then(ignore, ignore).then(() => {
      this.following = undefined;
      return this.startWrite();
    });
    return this.following;
  }

  private startWrite(): Promise<void> {
    const write: Promise<void> = this.run(() => this.writePending()).finally(() => {
      if (this.writing === write) this.writing = undefined;
    });
    this.writing = write;
    return write;
  }

  /**
   * Writes and syncs everything queued so far; resolves once it is on disk. The sync runs outside
   * the file queue: a commit's write never waits for a sync, which a busy disk can make slow.
   */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.run(() => this.writePending());
    await this.syncWritten();
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

  /**
   * Continues in another file (after compaction); returns the previous handle to close. What was
   * written to the previous file and not synced is in the snapshot, synced before this.
   */
  replaceFile(handle: FileHandle, bytes: number): FileHandle {
    const previous = this.handle;
    this.handle = handle;
    this.fileBytes = bytes;
    this.unsynced = false;
    return previous;
  }

  /**
   * Continues the log in `next`, a new and empty file, without holding the file queue for more
   * than the writes of what is queued for the current one: inside the queue the records queued so
   * far (and those queued while they are written) go to the current file, then in one synchronous
   * step `swapped` is called and the log moves to `next`. A record queued before that step is in
   * the current file, one queued after it in `next` (a store whose records depend on the ones
   * before them in their file starts over in `swapped`). The previous file is then synced and
   * closed outside the queue, and the next sync of the log waits for that, so a crash of the
   * machine cannot keep the later file's records and lose the earlier one's. When a write fails,
   * nothing changes: the records stay queued for the current file, `next` is closed, and the
   * error is thrown.
   */
  async roll(next: FileHandle, swapped: () => void): Promise<void> {
    let previous: FileHandle | undefined;
    try {
      await this.run(async () => {
        while (this.pending.length > 0) await this.writePending();
        swapped();
        previous = this.replaceFile(next, 0);
      });
    } catch (error) {
      await next.close().catch(ignore);
      throw error;
    }
    const retired = previous;
    if (retired === undefined) return;
    const earlier = this.retiring;
    this.retiring = earlier
      .then(() => retired.datasync())
      .catch((error: Error) => {
        // Its records are in memory, and in the snapshot that follows the roll.
        this.logger.error(`Syncing the ${this.what} before a roll failed`, { err: error.message });
      })
      .finally(() => retired.close().catch(ignore));
  }

  /** Flushes and closes the file. */
  async close(): Promise<void> {
    await this.flush();
    await this.retiring;
    await this.run(() => this.handle.close());
  }

  /** Arms the timer of the next sync, unless it is armed: a sync is never put off by later work. */
  private syncLater(): void {
    this.timer ??= setTimeout(() => this.flushInBackground(), this.syncIntervalMs).unref();
  }

  private async writePending(): Promise<void> {
    if (this.pending.length === 0) return;
    const batch = this.pending;
    const bytes = this.pendingBytes;
    this.discardPending();
    try {
      await this.writeAll(batch, bytes);
      if (this.durability === 'sync-each-write') await this.handle.datasync();
      this.fileBytes += bytes;
    } catch (error) {
      // A write cut short (a full disk) leaves part of a record, which replay would take for a
      // torn tail and cut off with every record after it: the next attempt starts where the
      // last whole record ends.
      await this.handle.truncate(this.fileBytes).catch(ignore);
      // Keep the records for the next attempt; a full disk may clear up.
      this.pending = [...batch, ...this.pending];
      this.pendingBytes += bytes;
      this.logger.error(`Writing the ${this.what} failed`, { err: (error as Error).message });
      this.syncLater();
      throw error;
    }
    if (this.durability === 'sync-on-interval') {
      this.unsynced = true;
      this.syncLater();
    } else if (this.pending.length === 0) {
      // Everything is on disk: no sync is due.
      clearTimeout(this.timer);
      this.timer = undefined;
    }
  }

  /** Writes all of `data`: a write to a file may take less than it was given (a full disk). */
  /**
   * Writes `buffers` (`bytes` in all) in one call; a write cut short goes on with the rest. Queued
   * records are written as they are, not joined into one copy first: a scrape's records outside
   * V8's heap were made three times over (writer, frame, join).
   */
  private async writeAll(buffers: Buffer[], bytes: number): Promise<void> {
    const { bytesWritten } = await this.handle.writev(buffers);
    if (bytesWritten === bytes) return;
    if (bytesWritten === 0) throw new Error('the file system took none of the bytes written');
    const data = Buffer.concat(buffers, bytes);
    for (let at = bytesWritten; at < data.length;) {
      const { bytesWritten } = await this.handle.write(data, at, data.length - at);
      if (bytesWritten === 0) throw new Error('the file system took none of the bytes written');
      at += bytesWritten;
    }
  }

  /**
   * Syncs what was written and not synced (`sync-on-interval`). A write completed while a sync
   * runs marks the file unsynced again; with nothing unsynced, the sync under way (which covers
   * every write completed before it) is waited for.
   */
  private async syncWritten(): Promise<void> {
    await this.retiring;
    if (!this.unsynced) return this.syncing;
    this.unsynced = false;
    const sync = this.handle.datasync().catch((error: Error) => {
      this.unsynced = true;
      this.logger.error(`Syncing the ${this.what} failed`, { err: error.message });
      this.syncLater();
      throw error;
    });
    this.syncing = sync.catch(ignore);
    return sync;
  }
}

const ignore = (): void => undefined;
