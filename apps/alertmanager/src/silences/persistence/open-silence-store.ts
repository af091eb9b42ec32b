import { mkdir } from 'node:fs/promises';
import type { Logger } from '../../logging/logger';
import { AppendLog } from '../../alerts/persistence/append-log';
import { LOG_WRITES_ARE_DURABLE, LogFiles } from '../../alerts/persistence/log-files';
import { loadLogState, type LogRecovery } from '../../alerts/persistence/load-log-state';
import { SilenceStore, type SilenceLimits } from '../silence-store';
import { decodeSilenceRecord, encodedSize } from './silence-codec';
import { SilenceJournalFile } from './silence-journal';

/** Where and how to keep silences. */
export interface OpenSilenceStoreOptions {
  /** The storage directory (`--storage.path`); created when missing. */
  dir: string;
  /** `--data.retention`: how long after its end a silence is kept, ms. */
  retentionMs: number;
  limits: SilenceLimits;
  logger: Logger;
  /** The log is compacted at maintenance once it is this big and twice the last snapshot. */
  compactAfterBytes?: number;
}

/** The silence store with its files: what the server runs, collects and closes. */
export interface PersistentSilences {
  store: SilenceStore;
  /** What loading found, including any torn or corrupt tail it ignored. */
  recovery: LogRecovery;
  /** Garbage collection, then a new snapshot when something was removed or the log is big. */
  maintenance(now: number): Promise<void>;
  /** Writes a final snapshot and closes the files. */
  close(): Promise<void>;
}

/**
 * Opens the silences kept under `dir`: loads `silences.snapshot` and replays its log (ignoring,
 * and reporting, a torn or corrupt tail), then continues the log. Every acknowledged change is
 * fsynced first, so a crash loses nothing that was acknowledged.
 */
export async function openSilenceStore(
  options: OpenSilenceStoreOptions,
): Promise<PersistentSilences> {
  const logger = options.logger.with({ component: 'silences' });
  await mkdir(options.dir, { recursive: true });
  const files = new LogFiles(options.dir, 'silences');
  const memory = new SilenceStore();
  const recovery = await loadLogState(
    files,
    {
      what: 'silences',
      applySnapshot(payload) {
        const record = decodeSilenceRecord(payload);
        if (!('put' in record)) return 0;
        record.put.forEach((s) => memory.restore(s));
        return record.put.length;
      },
      applyLog(payload) {
        const record = decodeSilenceRecord(payload);
        if ('put' in record) record.put.forEach((s) => memory.restore(s));
        else record.del.forEach((id) => memory.forget(id));
      },
    },
    logger,
  );
  await files.removeStale(recovery.generation);
  const handle = await files.openLog(recovery.generation, false);
  const log = new AppendLog(
    handle,
    recovery.logBytes,
    200,
    logger,
    'silences log',
    LOG_WRITES_ARE_DURABLE,
  );
  const journal = new SilenceJournalFile(files, log, recovery.generation, logger);
  const store = new SilenceStore(journal, options.limits, encodedSize);
  for (const silence of memory.list()) store.restore(silence);
  logger.info('Loaded silences', {
    silences: store.size,
    generation: recovery.generation,
    log_records: recovery.logRecords,
  });

  const compactAfter = options.compactAfterBytes ?? 16 * 1024 * 1024;
  let snapshotBytes = recovery.snapshotBytes;
  return {
    store,
    recovery,
    async maintenance(now) {
      const removed = store.gc(now, options.retentionMs);
      const big = journal.logBytes >= compactAfter && journal.logBytes >= 2 * snapshotBytes;
      if (removed > 0 || big) snapshotBytes = await journal.compact(() => store.list());
      else await journal.sync();
      logger.debug('Silences maintenance', { removed, silences: store.size });
    },
    async close() {
      await journal.compact(() => store.list());
      await journal.close();
    },
  };
}
