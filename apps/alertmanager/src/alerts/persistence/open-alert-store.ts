import { mkdir } from 'node:fs/promises';
import type { Logger } from '../../logging/logger';
import type { Clock } from '../../time/clock';
import { MemoryAlertStore } from '../memory-alert-store';
import { LOG_WRITES_ARE_DURABLE, LogFiles } from './log-files';
import { AppendLog } from './append-log';
import { loadAlertState } from './load-alert-state';
import { PersistentAlertStore, type PersistenceOptions } from './persistent-alert-store';

/** Where and how to keep alerts. */
export interface OpenAlertStoreOptions extends Partial<PersistenceOptions> {
  /** The storage directory (`--storage.path`); created when missing. */
  dir: string;
  clock: Clock;
  logger: Logger;
}

/**
 * Opens the alert store kept under `dir`: loads the last snapshot and replays its log (ignoring,
 * and reporting, a torn tail), then continues the log. Close it on shutdown to flush.
 */
export async function openAlertStore(
  options: OpenAlertStoreOptions,
): Promise<PersistentAlertStore> {
  const logger = options.logger.with({ component: 'alerts' });
  const settings: PersistenceOptions = {
    syncIntervalMs: Math.min(options.syncIntervalMs ?? 200, 1000),
    compactAfterBytes: options.compactAfterBytes ?? 64 * 1024 * 1024,
  };
  await mkdir(options.dir, { recursive: true });
  const files = new LogFiles(options.dir, 'alerts');
  const memory = new MemoryAlertStore(options.clock);
  const recovery = await loadAlertState(files, memory, logger);
  await files.removeStale(recovery.generation);
  const handle = await files.openLog(recovery.generation, false);
  const log = new AppendLog(
    handle,
    recovery.logBytes,
    settings.syncIntervalMs,
    logger,
    'alert log',
    LOG_WRITES_ARE_DURABLE,
  );
  logger.info('Loaded alerts', {
    alerts: memory.size,
    generation: recovery.generation,
    log_records: recovery.logRecords,
  });
  return new PersistentAlertStore(
    memory,
    files,
    log,
    recovery.generation,
    settings,
    logger,
    recovery,
  );
}
