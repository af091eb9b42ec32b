import type { Logger } from '../../logging/logger';
import type { MemoryAlertStore } from '../memory-alert-store';
import { decodeRecord } from './alert-codec';
import type { LogFiles } from './log-files';
import { loadLogState, type LogRecovery } from './load-log-state';

/** What loading the alert store found on disk; a torn or corrupt tail is reported here. */
export type AlertRecovery = LogRecovery;

/**
 * Replays the alert snapshot and then its log into `memory` (see {@link loadLogState} for how a
 * torn or corrupt tail is handled).
 */
export function loadAlertState(
  files: LogFiles,
  memory: MemoryAlertStore,
  logger: Logger,
): Promise<AlertRecovery> {
  return loadLogState(
    files,
    {
      what: 'alert store',
      applySnapshot(payload) {
        const record = decodeRecord(payload);
        if (!('put' in record)) return 0;
        record.put.forEach((a) => memory.restore(a));
        return record.put.length;
      },
      applyLog(payload) {
        const record = decodeRecord(payload);
        if ('put' in record) record.put.forEach((a) => memory.restore(a));
        else record.del.forEach((fp) => memory.forget(fp));
      },
    },
    logger,
  );
}
