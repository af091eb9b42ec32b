import { open, type FileHandle } from 'node:fs/promises';
import { crc32, FRAME_HEADER_BYTES } from './record-framing';

/** Bytes read from the file at a time (a record longer than this is read whole). */
const DEFAULT_BLOCK_BYTES = 1 << 20;

/**
 * A file of framed records read from the start a block at a time, so a start-up that replays a
 * large snapshot or log segment holds a block and the records in flight, not the whole file: the
 * blocks die young and their memory is returned as the replay goes (a 57 MiB snapshot read whole
 * stayed resident, with what was inflated from it, until V8's next full collection). It stops at
 * the first record cut short or failing its checksum, as `readFrames` does.
 */
export class FrameStream {
  /** Set once a record cut short or failing its checksum was met. */
  problem: string | undefined;
  /** Bytes of the file up to the end of the last sound record returned. */
  validBytes = 0;
  private block = Buffer.alloc(0);
  /** Where the unread bytes of `block` start, and where they end. */
  private at = 0;
  private end = 0;
  /** The file position `block`'s next read starts at. */
  private position = 0;
  private eof = false;

  private constructor(
    private readonly handle: FileHandle,
    /** The file's size when it was opened. */
    readonly size: number,
    private readonly blockBytes: number,
  ) {}

  /** The stream of `file`'s records, or undefined when there is no such file. */
  static async open(
    file: string,
    blockBytes = DEFAULT_BLOCK_BYTES,
  ): Promise<FrameStream | undefined> {
    let handle: FileHandle;
    try {
      handle = await open(file, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    try {
      return new FrameStream(handle, (await handle.stat()).size, blockBytes);
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  /** The next record's payload; undefined at the end of the file or at a damaged record. */
  async next(): Promise<Buffer | undefined> {
    if (this.problem !== undefined) return undefined;
    if (!(await this.buffer(FRAME_HEADER_BYTES))) {
      if (this.remaining > 0) this.problem = 'record header cut short';
      return undefined;
    }
    const length = this.block.readUInt32LE(this.at);
    const checksum = this.block.readUInt32LE(this.at + 4);
    if (!(await this.buffer(FRAME_HEADER_BYTES + length))) {
      this.problem = 'record cut short';
      return undefined;
    }
    const payload = this.block.subarray(
      this.at + FRAME_HEADER_BYTES,
      this.at + FRAME_HEADER_BYTES + length,
    );
    if (crc32(payload) !== checksum) {
      this.problem = 'checksum mismatch';
      return undefined;
    }
    this.at += FRAME_HEADER_BYTES + length;
    this.validBytes += FRAME_HEADER_BYTES + length;
    return payload;
  }

  close(): Promise<void> {
    return this.handle.close();
  }

  /** Bytes not yet returned: in the block, and in the file after it as it was opened. */
  private get remaining(): number {
    return this.end - this.at + (this.eof ? 0 : Math.max(0, this.size - this.position));
  }

  /** Whether `bytes` unread bytes are in the block, reading more of the file as needed. */
  private async buffer(bytes: number): Promise<boolean> {
    // A damaged length may ask for gigabytes: what the file cannot hold is cut short, not read.
    if (bytes > this.remaining) return false;
    while (this.end - this.at < bytes) {
      if (this.eof) return false;
      const unread = this.end - this.at;
      // A new block each time: the records handed out keep the old one while they are in use.
      const next = Buffer.allocUnsafe(Math.max(this.blockBytes, bytes));
      this.block.copy(next, 0, this.at, this.end);
      this.block = next;
      this.at = 0;
      this.end = unread;
      while (this.end < next.length) {
        const { bytesRead } = await this.handle.read(
          next,
          this.end,
          next.length - this.end,
          this.position,
        );
        if (bytesRead === 0) {
          this.eof = true;
          break;
        }
        this.end += bytesRead;
        this.position += bytesRead;
      }
    }
    return true;
  }
}
