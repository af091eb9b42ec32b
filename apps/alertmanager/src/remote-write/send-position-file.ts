import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LogPosition } from '../tsdb/metric-storage';

/** The folder under `--storage.path` where each remote's position is kept. */
export const SEND_POSITIONS_DIR = 'remote-write';

/**
 * Where one remote's sending stands in the metric store's log: the end of the last record whose
 * samples it took, kept in a small file so that a restart resumes there (a remote is known by its
 * URL and name, so a changed queue setting resumes too). Written without a sync, by a rename: a
 * killed process leaves the last one written, a crash of the machine an older one, and both only
 * mean samples sent again, which a receiver takes as duplicates.
 */
export class SendPositionFile {
  readonly path: string;

  constructor(dir: string, url: string, name: string) {
    const key = createHash('sha256').update(`${url}\n${name}`).digest('hex').slice(0, 16);
    this.path = join(dir, SEND_POSITIONS_DIR, `${key}.json`);
  }

  /** The position kept, undefined when there is none; throws naming the file when it is not one. */
  read(): LogPosition | undefined {
    return readPosition(this.path);
  }

  /** Replaces the position kept (a temporary file renamed over it). */
  write(position: LogPosition, remote: { url: string; name: string }): void {
    mkdirSync(join(this.path, '..'), { recursive: true });
    const tmp = `${this.path}.tmp`;
    writeFileSync(tmp, `${JSON.stringify({ ...position, ...remote })}\n`);
    renameSync(tmp, this.path);
  }
}

/** The position in a file, undefined when there is none; throws naming the file when it is not one. */
function readPosition(path: string): LogPosition | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  let parsed: Partial<LogPosition> | undefined;
  try {
    parsed = JSON.parse(text) as Partial<LogPosition>;
  } catch {
    parsed = undefined;
  }
  const { segment, offset } = parsed ?? {};
  if (!isCount(segment) || !isCount(offset)) {
    throw new Error(`${path}: not a log position: ${JSON.stringify(text.slice(0, 100))}`);
  }
  return { segment, offset };
}

function isCount(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

/**
 * The oldest log segment a remote's kept position is in, under `--storage.path` (undefined when
 * none is kept): the metric store keeps the segments from it on when it starts. Unreadable files
 * are left to the remotes, which say so.
 */
export function oldestSentSegment(storageDir: string): number | undefined {
  let names: string[];
  try {
    names = readdirSync(join(storageDir, SEND_POSITIONS_DIR));
  } catch {
    return undefined;
  }
  let oldest: number | undefined;
  for (const name of names) {
    if (!name.endsWith('.json')) continue;
    try {
      const position = readPosition(join(storageDir, SEND_POSITIONS_DIR, name));
      if (position && (oldest === undefined || position.segment < oldest))
        oldest = position.segment;
    } catch {
      // Its remote reports it when it starts.
    }
  }
  return oldest;
}
