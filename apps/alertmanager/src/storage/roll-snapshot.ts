import type { AppendLog } from './append-log';
import type { LogFiles } from './log-files';
import { frame } from './record-framing';
import { nextTurn } from '../time/next-turn';

/** How many items go into one snapshot record. */
const SNAPSHOT_CHUNK = 1000;

/**
 * Writes `items` as snapshot generation `generation` (a header frame, then records of up to 1,000
 * items each), continues the log in a fresh file of that generation and removes older files.
 * Call it inside `log.run` with the state taken there. The items are taken, and the records
 * queued so far dropped, at the same instant, before the first await: changes queued before are
 * in the snapshot and later ones go to the new log, so nothing is lost. Encoding then yields to
 * the event loop before each record (and `encode` may finish a record off the event loop), so a
 * large state never holds it for long. Returns the snapshot's size in bytes.
 */
export async function rollSnapshot<T>(
  log: AppendLog,
  files: LogFiles,
  generation: number,
  items: Iterable<T>,
  encode: (chunk: T[]) => Buffer | Promise<Buffer>,
): Promise<number> {
  const taken = [...items];
  log.discardPending();
  const frames = [frame(Buffer.from(JSON.stringify({ generation })))];
  for (let from = 0; from < taken.length; from += SNAPSHOT_CHUNK) {
    await nextTurn();
    frames.push(frame(await encode(taken.slice(from, from + SNAPSHOT_CHUNK))));
  }
  const data = Buffer.concat(frames);
  await files.writeSnapshot(data);
  const previous = log.replaceFile(await files.openLog(generation, true), 0);
  await previous.close();
  await files.removeStale(generation);
  return data.length;
}
