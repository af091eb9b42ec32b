import { readFile, rm } from 'node:fs/promises';
import { crc32 } from '../storage';
import { isNflogEntry, type NflogEntry } from './nflog-entry';

/** What {@link readLegacyNflog} found. */
export interface LegacyNflogContents {
  entries: NflogEntry[];
  /** Lines that failed their checksum or shape: torn or corrupt writes, ignored. */
  skipped: number;
}

function decode(line: string): NflogEntry | undefined {
  if (line.indexOf(' ') !== 8) return undefined;
  const json = line.slice(9);
  const sum = crc32(Buffer.from(json, 'utf8')).toString(16).padStart(8, '0');
  if (sum !== line.slice(0, 8)) return undefined;
  try {
    const value: unknown = JSON.parse(json);
    return isNflogEntry(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads the notification log as version 0.1 kept it: one file `nflog` of lines
 * `<crc32 hex> <entry JSON>`, later lines winning. Its entries move into the journal once, at
 * start, and the file is then removed ({@link removeLegacyNflog}). Undefined when there is none.
 */
export async function readLegacyNflog(path: string): Promise<LegacyNflogContents | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const lines = text.split('\n');
  // A last line without its newline is a torn append, even if its bytes happen to check out.
  let skipped = lines[lines.length - 1] === '' ? 0 : 1;
  const entries: NflogEntry[] = [];
  for (const line of lines.slice(0, -1)) {
    const entry = decode(line);
    if (entry) entries.push(entry);
    else skipped++;
  }
  return { entries, skipped };
}

/** Removes the old file once its entries are in a journal snapshot. */
export function removeLegacyNflog(path: string): Promise<void> {
  return rm(path, { force: true });
}
