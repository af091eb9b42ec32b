import { growableSharedBuffer, growSharedBuffer } from './growable-buffer';

/** Int32 fields of a chunk descriptor. */
const REF = 0;
const COUNT = 1;
/** The series' previous (older) chunk, plus one; 0 for none. */
const PREV = 2;
/** A closed chunk's length in bytes (read by the writing thread only). */
const BYTES = 3;
const INT_FIELDS = 4;
/** Float64 fields: first and last timestamp (the last one final once the chunk is closed). */
const MIN_T = 0;
const MAX_T = 1;
const TIME_FIELDS = 2;

/** Descriptors one store may have: an hour-long chunk each, so 16M is 10,000 series for 70 days. */
const MAX_DESCRIPTORS = 1 << 24;
const MAX_SERIES = 1 << 26;
const INITIAL = 1024;

/** What a reader thread needs to see a store's chunk table. */
export interface ChunkTableBuffers {
  readonly ints: SharedArrayBuffer;
  readonly times: SharedArrayBuffer;
  readonly latest: SharedArrayBuffer;
  /** Each series' ring of recent samples (`RecentRings`), by id. */
  readonly recent: SharedArrayBuffer;
  /** Where cold chunks end (one float). */
  readonly cold: SharedArrayBuffer;
}

/**
 * Which chunks each series has, in shared memory: one descriptor per chunk (where its bytes
 * are, how many samples are published, its time range, the series' previous chunk) and, per
 * series id, its newest chunk. The writing thread publishes with atomic stores in the order
 * readers load, so a reader on any thread sees every chunk whole:
 * - a sample count is stored after the sample's bits are written;
 * - a moved chunk's new ref is stored after its bytes are copied (the old bytes stay until no
 *   reader can be in them, see `ReadEpochs`);
 * - a series' newest chunk is stored after the descriptor is filled in;
 * - where cold chunks end (`coldBefore`) is stored before chunks are cut from their series, so
 *   a reader that loads it after walking a series' chunks knows to look for the ones it missed.
 */
export class ChunkTable {
  private readonly ints: Int32Array;
  private readonly times: Float64Array;
  private readonly latestIds: Int32Array;
  private readonly recentRefs: Int32Array;
  private readonly cold: Float64Array;
  private next = 0;
  private readonly free: number[] = [];

  constructor(readonly buffers: ChunkTableBuffers) {
    this.ints = new Int32Array(buffers.ints);
    this.times = new Float64Array(buffers.times);
    this.latestIds = new Int32Array(buffers.latest);
    this.recentRefs = new Int32Array(buffers.recent);
    this.cold = new Float64Array(buffers.cold);
  }

  /** An empty table, to be written by this thread. */
  static create(): ChunkTable {
    return new ChunkTable({
      ints: growableSharedBuffer(INITIAL * INT_FIELDS * 4, MAX_DESCRIPTORS * INT_FIELDS * 4),
      times: growableSharedBuffer(INITIAL * TIME_FIELDS * 8, MAX_DESCRIPTORS * TIME_FIELDS * 8),
      latest: growableSharedBuffer(INITIAL * 4, MAX_SERIES * 4),
      recent: growableSharedBuffer(INITIAL * 4, MAX_SERIES * 4),
      cold: coldBuffer(),
    });
  }

  // Reading (any thread).

  /** The newest chunk of a series, -1 for none. */
  latest(seriesId: number): number {
    if (seriesId >= this.latestIds.length) return -1;
    return Atomics.load(this.latestIds, seriesId) - 1;
  }

  /** The ring of a series' recent samples, -1 for none. */
  recentRing(seriesId: number): number {
    if (seriesId >= this.recentRefs.length) return -1;
    return Atomics.load(this.recentRefs, seriesId) - 1;
  }

  previous(chunk: number): number {
    return Atomics.load(this.ints, chunk * INT_FIELDS + PREV) - 1;
  }

  /** Samples published in a chunk: load it before the ref, and decode no more than it. */
  count(chunk: number): number {
    return Atomics.load(this.ints, chunk * INT_FIELDS + COUNT);
  }

  ref(chunk: number): number {
    return Atomics.load(this.ints, chunk * INT_FIELDS + REF);
  }

  minT(chunk: number): number {
    return this.times[chunk * TIME_FIELDS + MIN_T];
  }

  /** The last timestamp: exact for closed chunks; the open one's may lag its count. */
  maxT(chunk: number): number {
    return this.times[chunk * TIME_FIELDS + MAX_T];
  }

  /**
   * Chunks that end before this time may be cold: cut from their series' chain and found through
   * the chunk database's batches. Load it after walking a series' chunks.
   */
  coldBefore(): number {
    return this.cold[0];
  }

  // Writing (the owning thread only).

  /** Moves where cold chunks end forward, before any chunk ending before it is cut. */
  setColdBefore(time: number): void {
    if (time <= this.cold[0]) return;
    // The atomic stores that then cut chunks publish it to readers that see the cut.
    this.cold[0] = time;
  }

  /** A new descriptor for a series' chunk starting at `minT`, linked to its previous chunk. */
  add(ref: number, minT: number, previous: number): number {
    const chunk = this.free.pop() ?? this.next++;
    if (chunk >= MAX_DESCRIPTORS) throw new Error('metric store full: too many chunks');
    this.ensure(this.buffers.ints, (chunk + 1) * INT_FIELDS * 4);
    this.ensure(this.buffers.times, (chunk + 1) * TIME_FIELDS * 8);
    const at = chunk * INT_FIELDS;
    Atomics.store(this.ints, at + REF, ref);
    Atomics.store(this.ints, at + COUNT, 0);
    Atomics.store(this.ints, at + PREV, previous + 1);
    this.times[chunk * TIME_FIELDS + MIN_T] = minT;
    this.times[chunk * TIME_FIELDS + MAX_T] = minT;
    return chunk;
  }

  setLatest(seriesId: number, chunk: number): void {
    this.ensure(this.buffers.latest, (seriesId + 1) * 4);
    Atomics.store(this.latestIds, seriesId, chunk + 1);
  }

  /** Sets a series' ring of recent samples (-1: none), once the ring is ready to be read. */
  setRecentRing(seriesId: number, ring: number): void {
    this.ensure(this.buffers.recent, (seriesId + 1) * 4);
    Atomics.store(this.recentRefs, seriesId, ring + 1);
  }

  /** Publishes `count` samples ending at `maxT`. */
  publish(chunk: number, count: number, maxT: number): void {
    this.times[chunk * TIME_FIELDS + MAX_T] = maxT;
    Atomics.store(this.ints, chunk * INT_FIELDS + COUNT, count);
  }

  /** Points a chunk at where its bytes now are; `bytes` is their length once it is closed. */
  move(chunk: number, ref: number, bytes = 0): void {
    this.ints[chunk * INT_FIELDS + BYTES] = bytes;
    Atomics.store(this.ints, chunk * INT_FIELDS + REF, ref);
  }

  /** A closed chunk's length in bytes. */
  byteLength(chunk: number): number {
    return this.ints[chunk * INT_FIELDS + BYTES];
  }

  /** Cuts a chunk from the older ones (which are being dropped). */
  unlinkPrevious(chunk: number): void {
    Atomics.store(this.ints, chunk * INT_FIELDS + PREV, 0);
  }

  /**
   * Descriptors in use: every chunk linked to a series in memory, plus dropped ones whose release
   * waits for a running read (the table's count, so nothing walks the series for it).
   */
  get size(): number {
    return this.next - this.free.length;
  }

  /** Takes a descriptor back; only once no reader can still be reading it. */
  release(chunk: number): void {
    this.free.push(chunk);
  }

  private ensure(buffer: SharedArrayBuffer, bytes: number): void {
    if (bytes <= buffer.byteLength) return;
    const max = (buffer as SharedArrayBuffer & { maxByteLength: number }).maxByteLength;
    if (!growSharedBuffer(buffer, Math.min(Math.max(bytes, buffer.byteLength * 2), max))) {
      throw new Error('metric store full: chunk table at its maximum');
    }
  }
}

function coldBuffer(): SharedArrayBuffer {
  const buffer = new SharedArrayBuffer(8);
  new Float64Array(buffer)[0] = -Infinity;
  return buffer;
}
