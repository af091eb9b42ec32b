import { readFile, truncate } from 'node:fs/promises';
import type { Logger } from '../../logging/logger';
import type { MemoryAlertStore } from '../memory-alert-store';
import type { AlertFiles } from './alert-files';
import { decodeRecord } from './alert-codec';
import { readFrames } from './record-framing';

/** What loading found on disk; a torn or corrupt tail is reported here and in the log. */
export interface AlertRecovery {
  generation: number;
  snapshotAlerts: number;
  snapshotBytes: number;
  logRecords: number;
  /** Bytes at the end of the log (or snapshot) that were ignored, 0 when all were sound. */
  ignoredBytes: number;
  /** Why bytes were ignored, e.g. `checksum mismatch`. */
  problem?: string;
  /** Bytes of the log that were kept. */
  logBytes: number;
}

async function readIfExists(file: string): Promise<Buffer | undefined> {
  try {
    return await readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Replays the snapshot and then its log into `memory`. Reading stops at the first record that is
 * cut short or fails its checksum (a write torn by a crash); the rest is reported and ignored,
 * and the log is truncated there so new records follow the last sound one.
 */
export async function loadAlertState(
  files: AlertFiles,
  memory: MemoryAlertStore,
  logger: Logger,
): Promise<AlertRecovery> {
  const recovery: AlertRecovery = {
    generation: 0,
    snapshotAlerts: 0,
    snapshotBytes: 0,
    logRecords: 0,
    ignoredBytes: 0,
    logBytes: 0,
  };
  const report = (file: string, size: number, valid: number, problem: string) => {
    recovery.ignoredBytes += size - valid;
    recovery.problem = problem;
    logger.warn('Ignoring a torn or corrupt tail of the alert store', {
      file,
      offset: valid,
      ignored_bytes: size - valid,
      reason: problem,
    });
  };

  const snapshot = await readIfExists(files.snapshot);
  if (snapshot) {
    const read = readFrames(snapshot);
    recovery.snapshotBytes = snapshot.length;
    const [header, ...chunks] = read.records;
    const problem = read.problem ?? (header ? undefined : 'missing header');
    if (problem) report(files.snapshot, snapshot.length, read.validBytes, problem);
    if (header)
      recovery.generation = (JSON.parse(header.toString()) as { generation: number }).generation;
    for (const chunk of chunks) {
      const record = decodeRecord(chunk);
      if ('put' in record) record.put.forEach((a) => memory.restore(a));
      recovery.snapshotAlerts += 'put' in record ? record.put.length : 0;
    }
  }

  const logFile = files.log(recovery.generation);
  const log = await readIfExists(logFile);
  if (log) {
    const read = readFrames(log);
    let kept = read.validBytes;
    let problem = read.problem;
    let offset = 0;
    for (const payload of read.records) {
      let record;
      try {
        record = decodeRecord(payload);
      } catch {
        kept = offset;
        problem = 'undecodable record';
        break;
      }
      if ('put' in record) record.put.forEach((a) => memory.restore(a));
      else record.del.forEach((fp) => memory.forget(fp));
      recovery.logRecords++;
      offset += payload.length + 8;
    }
    if (problem) {
      report(logFile, log.length, kept, problem);
      await truncate(logFile, kept);
    }
    recovery.logBytes = kept;
  }
  return recovery;
}
