import { SnapshotWriter, type LogFiles } from '../../storage';
import { nextTurn } from '../../time/next-turn';
import type { MemorySeries } from '../memory-series';
import { HeadSeriesRecord } from './wal-records';

/** Most series in one snapshot record. */
const RECORD_SERIES = 1000;
/** Longest a slice of the capture runs before the loop yields, ms (checked every 32 series). */
const SLICE_MS = 5;
/** Records encoded (deflated on libuv's thread pool) at once, while the next slice is captured. */
const ENCODING = 2;

/**
 * Writes the checkpoint's snapshot of generation `generation` into the unfinished snapshot file
 * and syncs it; the caller renames it into place. Each series in `series` that `isLive` still
 * answers true for is captured whole in one synchronous step: its labels, its chunks in memory
 * and its open chunk's encoder state, encoded into the record at once (the chunks' bytes are
 * read in place, not copied). Appends go on between slices of a few milliseconds; each slice is
 * one record, encoded (deflated on libuv's thread pool) while the next is captured. Returns the snapshot's
 * size in bytes; on a failure the unfinished file is removed and the error thrown.
 */
export async function writeHeadSnapshot(
  files: LogFiles,
  generation: number,
  series: readonly MemorySeries[],
  isLive: (series: MemorySeries) => boolean,
): Promise<number> {
  const writer = await SnapshotWriter.start(files, generation);
  const encoding: Promise<Buffer>[] = [];
  try {
    for (let at = 0; at < series.length;) {
      await nextTurn();
      const started = performance.now();
      const record = new HeadSeriesRecord();
      while (
        at < series.length &&
        record.size < RECORD_SERIES &&
        (at % 32 !== 31 || performance.now() - started < SLICE_MS)
      ) {
        const s = series[at++];
        // The chunks are views: encoded now, in the same step as they are read.
        if (isLive(s)) {
          record.add({
            id: s.id,
            labels: s.labels,
            chunks: s.memoryChunks(true),
            open: s.openChunkState(),
          });
        }
      }
      if (record.size === 0) continue;
      const encoded = record.encoded();
      // Awaited in its turn below; a failure meanwhile must not go unhandled.
      encoded.catch(() => undefined);
      encoding.push(encoded);
      if (encoding.length >= ENCODING) await writeNext(writer, encoding);
    }
    while (encoding.length > 0) await writeNext(writer, encoding);
    return await writer.finish();
  } catch (error) {
    await writer.abandon();
    throw error;
  }
}

async function writeNext(writer: SnapshotWriter, encoding: Promise<Buffer>[]): Promise<void> {
  const record = encoding.shift();
  if (record !== undefined) await writer.add(await record);
}
