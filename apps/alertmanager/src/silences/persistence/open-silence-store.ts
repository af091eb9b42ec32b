import type { Logger } from '../../logging/logger';
import { openJournal, type LogRecovery } from '../../storage';
import { SilenceStore, type SilenceLimits } from '../silence-store';
import { encodedSize, SILENCE_CODEC } from './silence-codec';

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
  const memory = new SilenceStore();
  const { journal, recovery } = await openJournal({
    dir: options.dir,
    name: 'silences',
    what: 'silences',
    codec: SILENCE_CODEC,
    restore: (silence) => memory.restore(silence),
    forget: (id) => memory.forget(id),
    syncIntervalMs: 200,
    logger,
  });
  const store = new SilenceStore(journal, options.limits, encodedSize);
  for (const silence of memory.list()) store.restore(silence);
  logger.info('Loaded silences', {
    silences: store.size,
    generation: recovery.generation,
    log_records: recovery.logRecords,
  });

  const compactAfter = options.compactAfterBytes ?? 16 * 1024 * 1024;
  return {
    store,
    recovery,
    async maintenance(now) {
      const removed = store.gc(now, options.retentionMs);
      const big = journal.logBytes >= compactAfter && journal.logBytes >= 2 * journal.snapshotBytes;
      if (removed > 0 || big) await journal.compact(() => store.list());
      else await journal.sync();
      logger.debug('Silences maintenance', { removed, silences: store.size });
    },
    async close() {
      await journal.compact(() => store.list());
      await journal.close();
    },
  };
}
