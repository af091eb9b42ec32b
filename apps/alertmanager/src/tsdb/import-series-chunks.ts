import {
  decodeXorChunkInto,
  floatOfBits,
  isStaleBits,
  type SampleBuffer,
  type XorChunkState,
} from './chunks/xor-chunk';
import type { ClosedChunk } from './memory-series';
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
  const { table, sealed, states } = memory;
  if (states.head[id] >= 0) throw new Error('chunks imported behind an open chunk');
  const last = chunks[chunks.length - 1];
  const closed = chunks.slice(0, -1);
  let previous = table.latest(id);
  for (const c of closed) {
    const chunk = table.add(sealed.store(c.bytes), c.minT, previous);
    if (states.oldest[id] < 0) states.oldest[id] = chunk;
    table.move(chunk, table.ref(chunk), c.bytes.length);
    table.publish(chunk, c.count, c.maxT);
    table.setLatest(id, chunk);
    memory.sealedChunk(chunk, id);
    previous = chunk;
    states.count[id] += c.count;
  }
  if (open !== undefined) {
    resume(memory, id, last, open, open.count);
    states.lastT[id] = open.maxT;
    const stale = isStaleBits(open.hi, open.lo);
    states.lastStale[id] = stale ? 1 : 0;
    states.lastV[id] = stale ? NaN : floatOfBits(open.hi, open.lo);
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
  states.lastT[id] = decoded.t[newest];
  states.lastV[id] = decoded.v[newest];
  states.lastStale[id] = decoded.stale?.[newest] === 1 ? 1 : 0;
}

/** Opens `last` again as the series' open chunk, where `state` stands, with its `count` samples. */
function resume(
  memory: StoreMemory,
  id: number,
  last: ClosedChunk,
  state: XorChunkState,
  count: number,
): void {
  const { open, states } = memory;
  const head = open.open(id, state.minT, memory.table.latest(id), { bytes: last.bytes, state });
  states.head[id] = head;
  if (states.oldest[id] < 0) states.oldest[id] = open.chunk(head);
  states.count[id] += count;
}
