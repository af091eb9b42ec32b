import { decodeXorChunkInto, type SampleBuffer } from '../chunks/xor-chunk';
import type { SampleRun, SampleScratch } from '../queryable';
import type { ChunkBytes } from './chunk-bytes';
import type { ChunkTable } from './chunk-table';

const EMPTY: SampleRun = { t: new Float64Array(0), v: new Float64Array(0), stale: undefined };

/** A series' chunks a read decodes, newest first, with the counts it loaded. */
const chain: number[] = [];
const counts: number[] = [];

/**
 * A series' samples with `mint <= t <= maxt`, decoded from its chunks (in shared memory or on
 * disk), on any thread: each chunk's published count is loaded once, before its ref, so a chunk being
 * appended to or moved reads whole.
 */
export function readSeriesSamples(
  table: ChunkTable,
  bytes: ChunkBytes,
  seriesId: number,
  mint: number,
  maxt: number,
  scratch?: SampleScratch,
): SampleRun {
  chain.length = 0;
  counts.length = 0;
  let room = 0;
  let newest = true;
  for (let chunk = table.latest(seriesId); chunk >= 0; chunk = table.previous(chunk)) {
    // The newest chunk's last time may lag its count: it is never skipped for it.
    if (!newest && table.maxT(chunk) < mint) break;
    newest = false;
    const count = table.count(chunk);
    if (count === 0 || table.minT(chunk) > maxt) continue;
    chain.push(chunk);
    counts.push(count);
    room += count;
  }
  if (room === 0) return EMPTY;
  const out: SampleBuffer = scratch
    ? scratch.reset(room)
    : { t: new Float64Array(room), v: new Float64Array(room), stale: undefined, length: 0 };
  for (let i = chain.length - 1; i >= 0; i--) {
    decodeXorChunkInto(bytes.from(table.ref(chain[i])), counts[i], mint, maxt, out);
  }
  const n = out.length;
  return { t: out.t.subarray(0, n), v: out.v.subarray(0, n), stale: out.stale?.subarray(0, n) };
}
