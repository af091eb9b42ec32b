import type { ChunkTable } from './chunk-table';

/**
 * Whether a series has a sample with `mint <= t <= maxt`, from its chunks' time ranges where they
 * decide it, so that the series and label APIs do not decode every sample of every series they
 * list: a chunk whose first sample is in the range has one, and so does a closed chunk whose last
 * sample is (both are sample times). Only a chunk that spans the range, the open chunk (whose
 * last time may lag its count) or cold chunks leave it to `read` (the samples in the range).
 */
export function hasSamples(
  table: ChunkTable,
  seriesId: number,
  mint: number,
  maxt: number,
  read: () => boolean,
): boolean {
  let newest = true;
  for (let chunk = table.latest(seriesId); chunk >= 0; chunk = table.previous(chunk)) {
    const open = newest;
    newest = false;
    if (table.count(chunk) === 0) continue;
    const minT = table.minT(chunk);
    if (minT > maxt) continue;
    if (minT >= mint) return true;
    // The chunk starts before the range: older ones end before it starts.
    if (open) return read();
    const maxT = table.maxT(chunk);
    if (maxT < mint) return false;
    return maxT <= maxt || read();
  }
  // No chunk in memory starts before the range: cold ones may hold some of it.
  return mint < table.coldBefore() && read();
}
