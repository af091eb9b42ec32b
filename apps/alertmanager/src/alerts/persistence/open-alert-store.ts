import type { Logger } from '../../logging/logger';
import { openJournal } from '../../storage';
import type { Clock } from '../../time/clock';
import { MemoryAlertStore } from '../memory-alert-store';
import { ALERT_CODEC } from './alert-codec';
import { PersistentAlertStore, type PersistenceOptions } from './persistent-alert-store';

/** Where and how to keep alerts. */
export interface OpenAlertStoreOptions extends Partial<PersistenceOptions> {
  /** The storage directory (`--storage.path`); created when missing. */
  dir: string;
  clock: Clock;
  logger: Logger;
}

/**
 * Opens the alert store kept under `dir` (`alerts.snapshot` and `alerts-N.log`): loads the last
 * snapshot and replays its log (ignoring, and reporting, a torn tail), then continues the log.
 * Close it on shutdown to flush.
 */
export async function openAlertStore(
  options: OpenAlertStoreOptions,
): Promise<PersistentAlertStore> {
  const logger = options.logger.with({ component: 'alerts' });
  const settings: PersistenceOptions = {
    syncIntervalMs: Math.min(options.syncIntervalMs ?? 200, 1000),
    compactAfterBytes: options.compactAfterBytes ?? 64 * 1024 * 1024,
  };
  const memory = new MemoryAlertStore(options.clock);
  const { journal, recovery } = await openJournal({
    dir: options.dir,
    name: 'alerts',
    what: 'alert store',
    codec: ALERT_CODEC,
    restore: (alert) => memory.restore(alert),
    forget: (fp) => memory.forget(fp),
    syncIntervalMs: settings.syncIntervalMs,
    logger,
  });
  logger.info('Loaded alerts', {
    alerts: memory.size,
    generation: recovery.generation,
    log_records: recovery.logRecords,
  });
  return new PersistentAlertStore(memory, journal, settings, logger, recovery);
}
