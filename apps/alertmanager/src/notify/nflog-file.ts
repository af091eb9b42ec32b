import { closeSync, existsSync, fsyncSync, openSync, readFileSync } from 'node:fs';
import { open, rename, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { crc32 } from 'node:zlib';
import { isNflogEntry, type NflogEntry } from './nflog-entry';

/** What {@link NflogFile.read} found on disk. */
export interface NflogFileContents {
  entries: NflogEntry[];
  /** Lines that failed their checksum or shape: torn or corrupt writes, ignored. */
  skipped: number;
}

function encode(entry: NflogEntry): string {
  const json = JSON.stringify(entry);
  return `${crc32(json).toString(16).padStart(8, '0')} ${json}\n`;
}

function decode(line: string): NflogEntry | undefined {
  const space = line.indexOf(' ');
  if (space !== 8) return undefined;
  const json = line.slice(9);
  if (crc32(json).toString(16).padStart(8, '0') !== line.slice(0, 8)) return undefined;
  try {
    const value: unknown = JSON.parse(json);
    return isNflogEntry(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The notification log's file: an append-only log of checksummed JSON lines, so each
 * successful notification is on disk (fsync'd) before the flush completes, and a crash can at
 * worst tear the last line, which the checksum detects. Compaction rewrites the live entries to
 * a temporary file, fsyncs it and renames it over the log. Operations run one at a time.
 */
export class NflogFile {
  private handle: FileHandle | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(readonly path: string) {}

  /** Reads every intact entry, later lines winning; a missing file is an empty log. */
  read(): NflogFileContents {
    if (!existsSync(this.path)) return { entries: [], skipped: 0 };
    const text = readFileSync(this.path, 'utf8');
    const lines = text.split('\n');
    // A last line without its newline is a torn append, even if its bytes happen to check out.
    const complete = lines.slice(0, -1);
    let skipped = lines[lines.length - 1] === '' ? 0 : 1;
    const entries: NflogEntry[] = [];
    for (const line of complete) {
      const entry = decode(line);
      if (entry) entries.push(entry);
      else skipped++;
    }
    return { entries, skipped };
  }

  /** Appends one entry durably. */
  append(entry: NflogEntry): Promise<void> {
    return this.enqueue(async () => {
      this.handle ??= await open(this.path, 'a');
      await this.handle.appendFile(encode(entry));
      await this.handle.datasync();
    });
  }

  /** Replaces the log with exactly these entries (temp file, fsync, rename); returns its size. */
  compact(entries: Iterable<NflogEntry>): Promise<number> {
    return this.enqueue(async () => {
      const text = [...entries].map(encode).join('');
      const tmp = `${this.path}.tmp`;
      const file = await open(tmp, 'w');
      try {
        await file.writeFile(text);
        await file.sync();
      } finally {
        await file.close();
      }
      await this.handle?.close();
      this.handle = undefined;
      await rename(tmp, this.path);
      syncDirectory(dirname(this.path));
      return Buffer.byteLength(text);
    });
  }

  /** Waits for pending writes and closes the file. */
  close(): Promise<void> {
    return this.enqueue(async () => {
      await this.handle?.close();
      this.handle = undefined;
    });
  }

  private enqueue<T>(op: () => Promise<T>): Promise<T> {
    const next = this.queue.then(op, op);
    this.queue = next.catch(() => undefined);
    return next;
  }
}

/** Makes a rename durable; some platforms cannot open a directory, which is then best effort. */
function syncDirectory(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Not supported here (e.g. Windows); the rename itself is still atomic.
  }
}
