import { constants } from 'node:fs';
import { open, readdir, rename, rm, type FileHandle } from 'node:fs/promises';
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

/**
 * Where a store keeps its state under `--storage.path`: one snapshot `<name>.snapshot` whose first
 * record names its generation N, and the log `<name>-N.log` of changes since it. The alert store
 * uses the name `alerts`, the silences `silences`.
 */
export class LogFiles {
  private readonly logPattern: RegExp;
  /** When the records of this store's logs reach the disk (see {@link LogDurability}). */
  readonly durability: LogDurability;

  constructor(
    readonly dir: string,
    readonly name: string,
    /** True for a log whose writes need not wait for the disk: it is synced on an interval. */
    syncOnInterval = false,
  ) {
    this.logPattern = new RegExp(`^${name}-(\\d+)\\.log$`);
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

  /** Removes logs of other generations and an unfinished snapshot, left by a crash. */
  async removeStale(generation: number): Promise<void> {
    await rm(`${this.snapshot}.tmp`, { force: true });
    for (const name of await readdir(this.dir)) {
      const m = this.logPattern.exec(name);
      if (m && Number(m[1]) !== generation) await rm(join(this.dir, name), { force: true });
    }
  }

  /** Writes the snapshot atomically: a temp file, fsync, rename over the old one, fsync the dir. */
  async writeSnapshot(data: Buffer): Promise<void> {
    const tmp = `${this.snapshot}.tmp`;
    const handle = await open(tmp, 'w');
    try {
      await handle.write(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, this.snapshot);
    await this.syncDir();
  }

  /** Opens a generation's log for appending, creating it (and making the creation durable). */
  async openLog(generation: number, truncate: boolean): Promise<FileHandle> {
    const dsync = this.durability === 'durable-writes' ? O_DSYNC : 0;
    const flags = O_WRONLY | O_CREAT | O_APPEND | (truncate ? O_TRUNC : 0) | dsync;
    const handle = await open(this.log(generation), flags);
    await this.syncDir();
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
