import { mkdir } from 'node:fs/promises';
import type { Logger } from '../logging/logger';
import { AppendLog } from './append-log';
import { Journal } from './journal';
import { loadLogState, type LogRecovery } from './load-log-state';
import { LogFiles } from './log-files';
import { decodePutDelete, type TupleCodec } from './put-delete-codec';

/** Where a journal lives, how its items are written, and where loading puts them. */
export interface OpenJournalOptions<T> {
  /** The storage directory (`--storage.path`); created when missing. */
  dir: string;
  /** The files' base name: `<name>.snapshot` and `<name>-N.log`. */
  name: string;
  /** Names the store in log lines, e.g. `alert store`. */
  what: string;
  /** Names its log in errors; `<what> log` when not given. */
  logWhat?: string;
  codec: TupleCodec<T, unknown>;
  /** Takes one item read back, in the order it was written. */
  restore(item: T): void;
  /** Takes one key whose deletion was read back. */
  forget(key: string): void;
  /** Longest time a change nobody waits for (a deletion) waits for its write. */
  syncIntervalMs: number;
  logger: Logger;
}

/** A journal opened, and what loading it found. */
export interface OpenedJournal<T> {
  journal: Journal<T>;
  /** What loading found, including any torn or corrupt tail it ignored. */
  recovery: LogRecovery;
}

/**
 * Loads a journal's snapshot and replays its log through `restore` and `forget` (a torn or
 * corrupt tail is reported and cut off, see {@link loadLogState}), removes files older than the
 * snapshot, and continues the log where the last sound record ends.
 */
export async function openJournal<T>(options: OpenJournalOptions<T>): Promise<OpenedJournal<T>> {
  const { codec, logger } = options;
  await mkdir(options.dir, { recursive: true });
  const files = new LogFiles(options.dir, options.name);
  const apply = (payload: Buffer): number => {
    const record = decodePutDelete(payload, codec);
    if ('put' in record) {
      record.put.forEach((item) => options.restore(item));
      return record.put.length;
    }
    record.del.forEach((key) => options.forget(key));
    return 0;
  };
  const recovery = await loadLogState(
    files,
    { what: options.what, applySnapshot: apply, applyLog: (payload) => void apply(payload) },
    logger,
  );
  await files.removeStale(recovery.snapshotGeneration);
  const handle = await files.openLog(recovery.generation, false);
  const log = new AppendLog(
    handle,
    recovery.logBytes,
    options.syncIntervalMs,
    logger,
    options.logWhat ?? `${options.what} log`,
    files.durability,
  );
  const journal = new Journal(
    files,
    log,
    codec,
    recovery.generation,
    recovery.snapshotBytes,
    logger,
  );
  return { journal, recovery };
}
