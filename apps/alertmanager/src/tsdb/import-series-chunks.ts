import {
  decodeXorChunkInto,
  floatOfBits,
  isStaleBits,
  type SampleBuffer,
  type XorChunkState,
} from './chunks/xor-chunk';
import type { ClosedChunk } from './memory-series';
import { slot } from './memory/series-states';
import type { StoreMemory } from './memory/store-memory';

/**
 * Takes the chunks of series `id` read back from a snapshot (`MemorySeries.importChunks`), on
 * the series' state in `memory.states`: the closed ones join its chain, the newest becomes its
 * open chunk again, resumed at `open` (the encoder's state the checkpoint saved) or, without it,
 * at the state its bytes decode to.
 */
export function importSeriesChunks(
  memory: StoreMemory,
  id: number,
  chunks: readonly ClosedChunk[],
  open?: XorChunkState,
): void {
  if (chunks.length === 0 || chunks[chunks.length - 1].count === 0) return;
  const { table, sealed } = memory;
  const page = memory.states.at(id);
  const i = slot(id);
  if (page.head[i] >= 0) throw new Error('chunks imported behind an open chunk');
  const last = chunks[chunks.length - 1];
  const closed = chunks.slice(0, -1);
  let previous = table.latest(id);
  for (const c of closed) {
    const chunk = table.add(sealed.store(c.bytes), c.minT, previous);
    if (page.oldest[i] < 0) page.oldest[i] = chunk;
    table.move(chunk, table.ref(chunk), c.bytes.length);
    table.publish(chunk, c.count, c.maxT);
    table.setLatest(id, chunk);
    memory.sealedChunk(chunk, id);
    previous = chunk;
    page.count[i] += c.count;
  }
  if (open !== undefined) {
    resume(memory, id, last, open, open.count);
    page.lastT[i] = open.maxT;
    const stale = isStaleBits(open.hi, open.lo);
    page.lastStale[i] = stale ? 1 : 0;
    page.lastV[i] = stale ? NaN : floatOfBits(open.hi, open.lo);
    return;
  }
  // The open chunk's bytes are taken as they are; decoding them gives the encoder's state.
  const state = {} as XorChunkState;
  const decoded: SampleBuffer = {
    t: new Float64Array(last.count),
    v: new Float64Array(last.count),
    stale: undefined,
    length: 0,
  };
  decodeXorChunkInto(last.bytes, last.count, -Infinity, Infinity, decoded, state);
  resume(memory, id, last, state, decoded.length);
  const newest = decoded.length - 1;
  page.lastT[i] = decoded.t[newest];
  page.lastV[i] = decoded.v[newest];
  page.lastStale[i] = decoded.stale?.[newest] === 1 ? 1 : 0;
}

/** Opens `last` again as the series' open chunk, where `state` stands, with its `count` samples. */
function resume(
  memory: StoreMemory,
  id: number,
  last: ClosedChunk,
  state: XorChunkState,
  count: number,
): void {
  const { open } = memory;
  const page = memory.states.at(id);
  const i = slot(id);
  const head = open.open(id, state.minT, memory.table.latest(id), { bytes: last.bytes, state });
  page.head[i] = head;
  if (page.oldest[i] < 0) page.oldest[i] = open.chunk(head);
  page.count[i] += count;
}
