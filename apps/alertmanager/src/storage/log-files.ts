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
 * Where a store keeps its state under `--storage.path`: one snapshot `<name>.snapshot` whose first
 * record names its generation N, and the log `<name>-N.log` of changes since it. The alert store
 * uses the name `alerts`, the silences `silences`.
 */
export class LogFiles {
  private readonly logPattern: RegExp;

  constructor(
    readonly dir: string,
    readonly name: string,
  ) {
    this.logPattern = new RegExp(`^${name}-(\\d+)\\.log$`);
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
    const flags = O_WRONLY | O_CREAT | O_APPEND | (truncate ? O_TRUNC : 0) | (O_DSYNC ?? 0);
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
