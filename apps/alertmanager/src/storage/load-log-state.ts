import { truncate } from 'node:fs/promises';
import type { Logger } from '../logging/logger';
import type { LogFiles } from './log-files';
import { FrameStream } from './frame-stream';

/** What loading found on disk; a torn or corrupt tail is reported here and in the log. */
export interface LogRecovery {
  /** The generation of the last log segment, where new records go. */
  generation: number;
  /** The snapshot's generation (0 without one): segments older than it are stale. */
  snapshotGeneration: number;
  /** Log segments replayed. */
  segments: number;
  /** Items the snapshot held, as counted by the caller's `applySnapshot`. */
  snapshotItems: number;
  snapshotBytes: number;
  logRecords: number;
  /** Bytes of the log (or snapshot) that were ignored, 0 when all were sound. */
  ignoredBytes: number;
  /** Why bytes were ignored, e.g. `checksum mismatch`. */
  problem?: string;
  /** Bytes of the last segment that were kept. */
  logBytes: number;
}

/** How a store applies the records it reads back; both throw on a payload that is not theirs. */
export interface LogReplay {
  /** Applies one snapshot record (after the header); returns how many items it held. */
  applySnapshot(payload: Buffer): number;
  /**
   * Work on a snapshot record that needs no state, done off the event loop (inflating it): the
   * next few records' is started while one is applied, and each record is applied in order as its
   * own is done. A record it rejects is a bad record, as one `applySnapshot` throws on.
   */
  prepareSnapshot?(payload: Buffer): Promise<Buffer>;
  /** Applies one log record. */
  applyLog(payload: Buffer): void;
  /**
   * Called before the records of each log segment: a store whose records build on the ones
   * before them in their file starts over.
   */
  beginSegment?(generation: number): void;
  /** Names the store in the warning about a torn tail, e.g. `alert store`. */
  what: string;
}

/**
 * Snapshot records being prepared at once, ahead of the one applied: enough to keep libuv's four
 * threads busy, few enough that what they hold dies young.
 */
const PREPARED_AHEAD = 8;

/** A record as `prepareSnapshot` leaves it; a rejection is kept for its turn (never unhandled). */
function prepare(replay: LogReplay, payload: Buffer): Promise<Buffer> {
  if (replay.prepareSnapshot === undefined) return Promise.resolve(payload);
  const prepared = replay.prepareSnapshot(payload);
  prepared.catch(() => undefined);
  return prepared;
}

/**
 * Replays the snapshot and then its log: the segment of its generation and, for a segmented log
 * (see `LogFilesOptions`), every later one, oldest first. Reading stops at the first record that
 * is cut short or fails its checksum (a write torn by a crash) or does not decode; the rest of
 * that file is reported and ignored. At the end of the last segment that is a torn tail: the file
 * is truncated there so new records follow the last sound one. In an earlier segment it is a
 * corruption (that segment was complete before the next began): it is reported and left as it
 * is, and the next segment, which decodes on its own, is replayed.
 */
export async function loadLogState(
  files: LogFiles,
  replay: LogReplay,
  logger: Logger,
): Promise<LogRecovery> {
  const recovery: LogRecovery = {
    generation: 0,
    snapshotGeneration: 0,
    segments: 0,
    snapshotItems: 0,
    snapshotBytes: 0,
    logRecords: 0,
    ignoredBytes: 0,
    logBytes: 0,
  };
  const report = (file: string, size: number, valid: number, problem: string, what: string) => {
    recovery.ignoredBytes += size - valid;
    recovery.problem = problem;
    logger.warn(`Ignoring ${what} of the ${replay.what}`, {
      file,
      offset: valid,
      ignored_bytes: size - valid,
      reason: problem,
    });
  };

  const snapshot = await FrameStream.open(files.snapshot);
  if (snapshot) {
    try {
      await replaySnapshot(snapshot, replay, recovery, (valid, problem) =>
        report(files.snapshot, snapshot.size, valid, problem, 'a torn or corrupt tail'),
      );
    } finally {
      await snapshot.close();
    }
  }
  recovery.generation = recovery.snapshotGeneration;

  const segments = await files.segments(recovery.snapshotGeneration);
  for (const [i, generation] of segments.entries()) {
    const last = i === segments.length - 1;
    const logFile = files.log(generation);
    const log = await FrameStream.open(logFile);
    if (log === undefined) continue;
    let kept = 0;
    let problem: string | undefined;
    try {
      replay.beginSegment?.(generation);
      for (let payload = await log.next(); payload; payload = await log.next()) {
        try {
          replay.applyLog(payload);
        } catch {
          problem = 'undecodable record';
          break;
        }
        recovery.logRecords++;
        kept = log.validBytes;
      }
      problem ??= log.problem;
    } finally {
      await log.close();
    }
    recovery.segments++;
    recovery.generation = generation;
    recovery.logBytes = kept;
    if (problem === undefined) continue;
    if (last) {
      report(logFile, log.size, kept, problem, 'a torn or corrupt tail');
      await truncate(logFile, kept);
    } else {
      report(logFile, log.size, kept, problem, 'the corrupt rest of a log segment');
    }
  }
  return recovery;
}

/**
 * Applies the snapshot's records in order, each prepared (off the event loop) while the ones
 * before it are applied; `report` is told where and why reading stopped early.
 */
async function replaySnapshot(
  snapshot: FrameStream,
  replay: LogReplay,
  recovery: LogRecovery,
  report: (valid: number, problem: string) => void,
): Promise<void> {
  recovery.snapshotBytes = snapshot.size;
  const header = await snapshot.next();
  if (header === undefined) {
    report(snapshot.validBytes, snapshot.problem ?? 'missing header');
    return;
  }
  recovery.snapshotGeneration = (
    JSON.parse(header.toString()) as { generation: number }
  ).generation;
  let valid = snapshot.validBytes;
  const ahead: { prepared: Promise<Buffer>; end: number }[] = [];
  const readAhead = async () => {
    while (ahead.length < PREPARED_AHEAD) {
      const payload = await snapshot.next();
      if (payload === undefined) return;
      ahead.push({ prepared: prepare(replay, payload), end: snapshot.validBytes });
    }
  };
  for (await readAhead(); ahead.length > 0; await readAhead()) {
    const { prepared, end } = ahead.shift() as (typeof ahead)[number];
    try {
      recovery.snapshotItems += replay.applySnapshot(await prepared);
    } catch {
      report(valid, 'undecodable record');
      return;
    }
    valid = end;
  }
  if (snapshot.problem !== undefined) report(valid, snapshot.problem);
}
