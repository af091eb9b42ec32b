import { decodeXorChunkInto, type SampleBuffer } from '../chunks/xor-chunk';
import type { SampleRun, SampleScratch } from '../queryable';
import { isDiskRef, refSeq, type ChunkBytes } from './chunk-bytes';
import type { ChunkTable } from './chunk-table';

/** Cold chunks a read found: sequence numbers and sample counts, oldest first. */
export interface ColdChunks {
  readonly seqs: number[];
  readonly counts: number[];
}

/**
 * Where a thread finds cold chunks: those cut from their series' chains in memory, kept on disk
 * and found through the batches they were written in (see `ColdChunkIndex`).
 */
export interface ColdChunkSource {
  /**
   * Pushes the chunks of a series that may be cold (they end before `coldBefore`) and may hold
   * samples in `[mint, maxt]`, oldest first.
   */
  find(seriesId: number, mint: number, maxt: number, coldBefore: number, out: ColdChunks): void;
  /** A cold chunk's bytes, valid until the next read on this thread. */
  bytes(seq: number): Uint8Array;
}

const EMPTY: SampleRun = { t: new Float64Array(0), v: new Float64Array(0), stale: undefined };

/** A series' chunks a read decodes, newest first, with the counts it loaded. */
const chain: number[] = [];
const counts: number[] = [];
/** Sequence numbers of the chain's chunks on disk, so a cold chunk is not read twice. */
const chainSeqs = new Set<number>();
const cold: ColdChunks = { seqs: [], counts: [] };

/**
 * A series' samples with `mint <= t <= maxt`, decoded from its chunks (in shared memory or on
 * disk), on any thread: each chunk's published count is loaded once, before its ref, so a chunk being
 * appended to or moved reads whole. Cold chunks, older than every chunk of the chain, come from
 * `coldSource` when the read reaches before the cold boundary (loaded after the chain is walked,
 * so chunks cut meanwhile are found there; those the walk saw too are read once).
 */
export function readSeriesSamples(
  table: ChunkTable,
  bytes: ChunkBytes,
  seriesId: number,
  mint: number,
  maxt: number,
  scratch?: SampleScratch,
  coldSource?: ColdChunkSource,
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
  cold.seqs.length = 0;
  cold.counts.length = 0;
  const coldBefore = table.coldBefore();
  if (coldSource !== undefined && mint < coldBefore) {
    coldSource.find(seriesId, mint, maxt, coldBefore, cold);
    if (cold.seqs.length > 0) room += coldCount(table);
  }
  if (room === 0) return EMPTY;
  const out: SampleBuffer = scratch
    ? scratch.reset(room)
    : { t: new Float64Array(room), v: new Float64Array(room), stale: undefined, length: 0 };
  for (let i = 0; coldSource !== undefined && i < cold.seqs.length; i++) {
    if (cold.counts[i] === 0) continue;
    decodeXorChunkInto(coldSource.bytes(cold.seqs[i]), cold.counts[i], mint, maxt, out);
  }
  for (let i = chain.length - 1; i >= 0; i--) {
    decodeXorChunkInto(bytes.from(table.ref(chain[i])), counts[i], mint, maxt, out);
  }
  const n = out.length;
  return { t: out.t.subarray(0, n), v: out.v.subarray(0, n), stale: out.stale?.subarray(0, n) };
}

/** Samples of the cold chunks found that the chain does not hold (those it does get count 0). */
function coldCount(table: ChunkTable): number {
  chainSeqs.clear();
  for (const chunk of chain) {
    const ref = table.ref(chunk);
    if (isDiskRef(ref)) chainSeqs.add(refSeq(ref));
  }
  let total = 0;
  for (let i = 0; i < cold.seqs.length; i++) {
    if (chainSeqs.has(cold.seqs[i])) cold.counts[i] = 0;
    total += cold.counts[i];
  }
  return total;
}
