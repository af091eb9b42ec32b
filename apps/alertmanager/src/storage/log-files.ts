import { constants } from 'node:fs';
import { open, readdir, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';

const { O_WRONLY, O_CREAT, O_APPEND, O_TRUNC, O_DSYNC } = constants;

/**
 * Whether a write to a log is on disk when it completes (the file is opened with `O_DSYNC`, where
 * the platform has it). Then a durable append is one call into the file system instead of a write
 * and an `fdatasync`, each waiting for the main thread before the next can start.
 */
export const LOG_WRITES_ARE_DURABLE = O_DSYNC !== undefined;

/**
 * When a log's records reach the disk. `durable-writes`: the file is opened with `O_DSYNC`, so a
 * write is on disk when it completes; `sync-each-write`: each write is followed by an fdatasync
 * (where there is no `O_DSYNC`); `sync-on-interval`: a completed write has handed the records to
 * the operating system, which keeps them when the process is killed, and an fdatasync follows
 * within the log's sync interval, as Prometheus syncs its write-ahead log.
 */
export type LogDurability = 'durable-writes' | 'sync-each-write' | 'sync-on-interval';

/** How a store's log is kept. */
export interface LogFilesOptions {
  /** True for a log whose writes need not wait for the disk: it is synced on an interval. */
  readonly syncOnInterval?: boolean;
  /**
   * True for a log that rolls to its next segment before the snapshot of that generation is
   * written (the metric store): every segment from the snapshot's generation on is the log.
   * Otherwise the log is the snapshot's generation alone (the journals write the snapshot
   * first), and files of other generations are stale.
   */
  readonly segmented?: boolean;
}

/**
 * Where a store keeps its state under `--storage.path`: one snapshot `<name>.snapshot` whose first
 * record names its generation N, and the log of changes since it, `<name>-N.log` (and, for a
 * segmented log, the later segments `<name>-N+1.log`, ..., which it has until the snapshot of
 * their generation is in place). The alert store uses the name `alerts`, the silences
 * `silences`, the metric store `metrics`.
 */
export class LogFiles {
  private readonly logPattern: RegExp;
  /** When the records of this store's logs reach the disk (see {@link LogDurability}). */
  readonly durability: LogDurability;
  /** Whether the log is every segment from the snapshot's generation on (see {@link LogFilesOptions}). */
  readonly segmented: boolean;

  constructor(
    readonly dir: string,
    readonly name: string,
    { syncOnInterval = false, segmented = false }: LogFilesOptions = {},
  ) {
    this.logPattern = new RegExp(`^${name}-(\\d+)\\.log$`);
    this.segmented = segmented;
    this.durability = syncOnInterval
      ? 'sync-on-interval'
      : LOG_WRITES_ARE_DURABLE
        ? 'durable-writes'
        : 'sync-each-write';
  }

  /** The snapshot's path. */
  get snapshot(): string {
    return join(this.dir, `${this.name}.snapshot`);
  }

  /** The path of a generation's log. */
  log(generation: number): string {
    return join(this.dir, `${this.name}-${generation}.log`);
  }

  /** Where a snapshot is written before it is renamed into place. */
  get unfinishedSnapshot(): string {
    return `${this.snapshot}.tmp`;
  }

  /** The generations of the log's segments on disk, the snapshot's being `from`, oldest first. */
  async segments(from: number): Promise<number[]> {
    const found: number[] = [];
    for (const name of await readdir(this.dir)) {
      const m = this.logPattern.exec(name);
      if (m && !this.isStale(Number(m[1]), from)) found.push(Number(m[1]));
    }
    return found.sort((a, b) => a - b);
  }

  /**
   * Removes the log files that are not the log of the snapshot of `generation` (segments older
   * than it hold nothing it does not), and an unfinished snapshot, left by a crash or a failed
   * write. A segmented log keeps its older segments from `keepFrom` on, for readers behind it.
   */
  async removeStale(generation: number, keepFrom = generation): Promise<void> {
    await rm(this.unfinishedSnapshot, { force: true });
    const oldestKept = this.segmented ? Math.min(generation, keepFrom) : generation;
    for (const name of await readdir(this.dir)) {
      const m = this.logPattern.exec(name);
      if (m && this.isStale(Number(m[1]), oldestKept)) {
        await rm(join(this.dir, name), { force: true });
      }
    }
  }

  /** The segments older than `generation` and when each was last written, oldest first. */
  async segmentsBefore(generation: number): Promise<{ generation: number; modifiedMs: number }[]> {
    const found: { generation: number; modifiedMs: number }[] = [];
    for (const name of await readdir(this.dir)) {
      const m = this.logPattern.exec(name);
      if (!m || Number(m[1]) >= generation) continue;
      const info = await stat(join(this.dir, name)).catch(() => undefined);
      if (info) found.push({ generation: Number(m[1]), modifiedMs: info.mtimeMs });
    }
    return found.sort((a, b) => a.generation - b.generation);
  }

  private isStale(segment: number, snapshotGeneration: number): boolean {
    return this.segmented ? segment < snapshotGeneration : segment !== snapshotGeneration;
  }

  /** Writes the snapshot atomically: a temp file, fsync, rename over the old one, fsync the dir. */
  async writeSnapshot(data: Buffer): Promise<void> {
    const tmp = this.unfinishedSnapshot;
    const handle = await open(tmp, 'w');
    try {
      await handle.write(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await this.placeSnapshot();
  }

  /** Renames the unfinished snapshot over the snapshot and makes the rename durable. */
  async placeSnapshot(): Promise<void> {
    await rename(this.unfinishedSnapshot, this.snapshot);
    await this.syncDir();
  }

  /** Opens a generation's log for appending, creating it (and making the creation durable). */
  async openLog(generation: number, truncate: boolean): Promise<FileHandle> {
    const dsync = this.durability === 'durable-writes' ? O_DSYNC : 0;
    const flags = O_WRONLY | O_CREAT | O_APPEND | (truncate ? O_TRUNC : 0) | dsync;
    const handle = await open(this.log(generation), flags);
    try {
      await this.syncDir();
    } catch (error) {
      await handle.close().catch(() => undefined);
      throw error;
    }
    return handle;
  }

  private async syncDir(): Promise<void> {
    const dir = await open(this.dir, 'r');
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
  }
}
