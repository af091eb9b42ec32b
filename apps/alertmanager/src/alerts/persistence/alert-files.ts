import { open, readdir, rename, rm, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';

const SNAPSHOT = 'alerts.snapshot';
const LOG_PATTERN = /^alerts-(\d+)\.log$/;

/**
 * Where the alert store keeps its state under `--storage.path`: one snapshot `alerts.snapshot`
 * whose first record names its generation N, and the log `alerts-N.log` of changes since it.
 */
export class AlertFiles {
  constructor(readonly dir: string) {}

  get snapshot(): string {
    return join(this.dir, SNAPSHOT);
  }

  log(generation: number): string {
    return join(this.dir, `alerts-${generation}.log`);
  }

  /** Removes logs of other generations and an unfinished snapshot, left by a crash. */
  async removeStale(generation: number): Promise<void> {
    await rm(`${this.snapshot}.tmp`, { force: true });
    for (const name of await readdir(this.dir)) {
      const m = LOG_PATTERN.exec(name);
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
    const handle = await open(this.log(generation), truncate ? 'w' : 'a');
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
