import type { AppendLog } from './append-log';
import type { LogFiles } from './log-files';
import { frame } from './record-framing';

/** How many items go into one snapshot record. */
const SNAPSHOT_CHUNK = 1000;

/**
 * Writes `items` as snapshot generation `generation` (a header frame, then records of up to 1,000
 * items each), continues the log in a fresh file of that generation and removes older files.
 * Call it inside `log.run` with the state taken there, so that changes queued before are in the
 * snapshot and later ones in the new log: nothing is lost or counted twice. Returns the
 * snapshot's size in bytes.
 */
export async function rollSnapshot<T>(
  log: AppendLog,
  files: LogFiles,
  generation: number,
  items: Iterable<T>,
  encode: (chunk: T[]) => Buffer,
): Promise<number> {
  const frames = [frame(Buffer.from(JSON.stringify({ generation })))];
  let chunk: T[] = [];
  for (const item of items) {
    chunk.push(item);
    if (chunk.length === SNAPSHOT_CHUNK) {
      frames.push(frame(encode(chunk)));
      chunk = [];
    }
  }
  if (chunk.length > 0) frames.push(frame(encode(chunk)));
  log.discardPending();
  const data = Buffer.concat(frames);
  await files.writeSnapshot(data);
  const previous = log.replaceFile(await files.openLog(generation, true), 0);
  await previous.close();
  await files.removeStale(generation);
  return data.length;
}
