import { open, rm, type FileHandle } from 'node:fs/promises';
import type { LogFiles } from './log-files';
import { frame } from './record-framing';

/**
 * A snapshot written a record at a time into `<name>.snapshot.tmp` (its header, naming its
 * generation, first), so a large one is never one buffer in memory. `finish` syncs it and
 * `LogFiles.placeSnapshot` renames it over the snapshot in place; until then the snapshot in
 * place and its log are what a start reads, and an unfinished file is removed as stale.
 */
export class SnapshotWriter {
  private bytes = 0;

  private constructor(
    private readonly files: LogFiles,
    private readonly handle: FileHandle,
  ) {}

  /** Creates (or empties) the unfinished snapshot and writes its header. */
  static async start(files: LogFiles, generation: number): Promise<SnapshotWriter> {
    const handle = await open(files.unfinishedSnapshot, 'w');
    const writer = new SnapshotWriter(files, handle);
    try {
      await writer.add(Buffer.from(JSON.stringify({ generation })));
    } catch (error) {
      await writer.abandon();
      throw error;
    }
    return writer;
  }

  /** Appends one record. */
  async add(payload: Buffer): Promise<void> {
    const framed = frame(payload);
    for (let at = 0; at < framed.length;) {
      const { bytesWritten } = await this.handle.write(framed, at, framed.length - at);
      if (bytesWritten === 0) throw new Error('the file system took none of the bytes written');
      at += bytesWritten;
    }
    this.bytes += framed.length;
  }

  /** Syncs and closes the file; returns its size in bytes. */
  async finish(): Promise<number> {
    try {
      await this.handle.sync();
    } finally {
      await this.handle.close();
    }
    return this.bytes;
  }

  /** Closes and removes the unfinished file (after a failure); never throws. */
  async abandon(): Promise<void> {
    await this.handle.close().catch(() => undefined);
    await rm(this.files.unfinishedSnapshot, { force: true }).catch(() => undefined);
  }
}
