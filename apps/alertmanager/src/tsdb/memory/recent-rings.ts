import type { SampleBuffer } from '../chunks/xor-chunk';
import type { SampleRun, SampleScratch } from '../queryable';
import {
  chunkRef,
  refOffset,
  refSegment,
  SEGMENT_BYTES,
  type ChunkSegments,
} from './chunk-segments';

/** Slots of a ring: one sample each. */
const SLOTS = 32;
/**
 * Samples a read takes from a ring: one fewer than its slots, so the slot the writer may be
 * filling while a reader on another thread copies is never one the read uses. Enough for a
 * 5-minute window at a 15-second interval (rules' `rate(...[5m])`, the 5-minute lookback).
 */
export const RECENT_SAMPLES = SLOTS - 1;

/** Int32 fields at a ring's start. */
const TOTAL = 0; // samples ever written to the ring; the newest is at slot (TOTAL - 1) % SLOTS
const START = 1; // the oldest index a read may take (samples before it are gone from the series)
const VERSION = 2; // odd while the writer rewrites the ring (a refill), so readers look away
/** Byte offsets in a ring. */
const COVERED_AT = 16; // f64: the ring holds every sample of the series from this time on
const T_AT = 24;
const V_AT = T_AT + SLOTS * 8;
const STALE_AT = V_AT + SLOTS * 8;
/** A ring's size, 8-byte aligned. */
const RING_BYTES = STALE_AT + SLOTS;
/** Tries a read makes before it gives up on a ring being written (the chunks then answer). */
const TRIES = 3;

/** Where a thread reads one segment's rings. */
interface SegmentViews {
  readonly ints: Int32Array;
  readonly floats: Float64Array;
  readonly bytes: Uint8Array;
}

/**
 * Each series' newest samples, uncompressed, in the store's shared memory: rings of
 * {@link SLOTS} samples cut from segments of their own. The writing thread appends and refills
 * them; every thread reads them, so the windows rules and instant queries read most (the last
 * five minutes) are read without decoding a chunk, on query threads as on the main thread.
 *
 * A ring is published like a chunk: a sample's time, value and staleness are written before the
 * ring's total is stored, and a reader loads the total first and again after copying, keeping
 * the copy only when nothing moved (a rewrite bumps the version around it). A ring is only ever
 * an answer when it holds the whole window asked for; otherwise the chunks answer.
 */
export class RecentRings {
  private readonly views: SegmentViews[] = [];
  /** The views and int32 index of the ring {@link locate} found last. */
  private ints: Int32Array = new Int32Array(0);
  private floats: Float64Array = new Float64Array(0);
  private bytes: Uint8Array = new Uint8Array(0);
  private at = 0;
  private segment = -1;
  private used = 0;
  private readonly free: number[] = [];

  constructor(private readonly segments: ChunkSegments) {}

  // Writing (the owning thread only).

  /**
   * A new empty ring: its ref. `coveredFrom` is the time from which it holds every sample of its
   * series (-Infinity for a series with none yet; Infinity when older samples are elsewhere).
   */
  allocate(coveredFrom: number): number {
    let ref = this.free.pop();
    if (ref === undefined) {
      if (this.segment < 0 || this.used + RING_BYTES > SEGMENT_BYTES) {
        this.segment = this.segments.create();
        this.used = 0;
      }
      ref = chunkRef(this.segment, this.used);
      this.used += RING_BYTES;
    }
    this.locate(ref);
    const { ints, floats, at } = this;
    Atomics.add(ints, at + VERSION, 1);
    Atomics.store(ints, at + START, Atomics.load(ints, at + TOTAL));
    floats[(at * 4 + COVERED_AT) / 8] = coveredFrom;
    Atomics.add(ints, at + VERSION, 1);
    return ref;
  }

  /** Gives a ring back; only once no reader can still be reading it. */
  release(ref: number): void {
    this.free.push(ref);
  }

  /** Appends a series' newest sample. */
  take(ref: number, t: number, v: number, stale: boolean): void {
    this.locate(ref);
    const { ints, floats, bytes, at } = this;
    const total = ints[at + TOTAL];
    const slot = total % SLOTS;
    const base = at * 4;
    floats[(base + T_AT) / 8 + slot] = t;
    floats[(base + V_AT) / 8 + slot] = stale ? NaN : v;
    bytes[base + STALE_AT + slot] = stale ? 1 : 0;
    Atomics.store(ints, at + TOTAL, total + 1);
  }

  /**
   * Starts the ring over with the newest samples of `run`, a read of the series from `mint` on
   * that reached its newest sample: the ring then holds every sample from `mint` on when the run
   * fits (`mint` -Infinity: the run was every sample the series has).
   */
  refill(ref: number, run: SampleRun, mint: number): void {
    this.locate(ref);
    const { ints, floats, bytes, at } = this;
    const base = at * 4;
    const times = (base + T_AT) / 8;
    const values = (base + V_AT) / 8;
    const n = run.t.length;
    Atomics.add(ints, at + VERSION, 1);
    const start = ints[at + TOTAL];
    let total = start;
    for (let i = Math.max(0, n - RECENT_SAMPLES); i < n; i++, total++) {
      const slot = total % SLOTS;
      const stale = run.stale !== undefined && run.stale[i] === 1;
      floats[times + slot] = run.t[i];
      floats[values + slot] = stale ? NaN : run.v[i];
      bytes[base + STALE_AT + slot] = stale ? 1 : 0;
    }
    Atomics.store(ints, at + START, start);
    floats[(base + COVERED_AT) / 8] = n <= RECENT_SAMPLES ? mint : Infinity;
    Atomics.store(ints, at + TOTAL, total);
    Atomics.add(ints, at + VERSION, 1);
  }

  /** Keeps at most the newest `n` samples (the series has no more than that left). */
  keepNewest(ref: number, n: number): void {
    this.locate(ref);
    const { ints, floats, at } = this;
    const total = ints[at + TOTAL];
    if (total - ints[at + START] <= n) return;
    Atomics.add(ints, at + VERSION, 1);
    Atomics.store(ints, at + START, total - n);
    floats[(at * 4 + COVERED_AT) / 8] = -Infinity;
    Atomics.add(ints, at + VERSION, 1);
  }

  /** Holds no longer every sample from any time but its oldest (older ones turned up elsewhere). */
  uncover(ref: number): void {
    this.locate(ref);
    const { ints, floats, at } = this;
    Atomics.add(ints, at + VERSION, 1);
    floats[(at * 4 + COVERED_AT) / 8] = Infinity;
    Atomics.add(ints, at + VERSION, 1);
  }

  // Reading (any thread).

  /**
   * The samples with `mint <= t <= maxt` when the ring holds every sample of the series from
   * `mint` on, else undefined (read the chunks). With `scratch`, a view on its arrays.
   */
  read(ref: number, mint: number, maxt: number, scratch?: SampleScratch): SampleRun | undefined {
    this.locate(ref);
    const { ints, floats, bytes, at } = this;
    const base = at * 4;
    const times = (base + T_AT) / 8;
    const values = (base + V_AT) / 8;
    for (let attempt = 0; attempt < TRIES; attempt++) {
      const version = Atomics.load(ints, at + VERSION);
      if (version % 2 === 1) continue;
      const total = Atomics.load(ints, at + TOTAL);
      const start = Atomics.load(ints, at + START);
      const covered = floats[(base + COVERED_AT) / 8];
      const oldest = Math.max(start, total - RECENT_SAMPLES);
      if (oldest >= total) return undefined;
      if (!(floats[times + (oldest % SLOTS)] <= mint || (oldest === start && covered <= mint))) {
        return undefined;
      }
      const out = buffer(total - oldest, scratch);
      for (let i = oldest; i < total; i++) {
        const slot = i % SLOTS;
        const t = floats[times + slot];
        if (t < mint) continue;
        if (t > maxt) break;
        const k = out.length++;
        out.t[k] = t;
        out.v[k] = floats[values + slot];
        if (bytes[base + STALE_AT + slot] === 1) {
          out.stale ??= new Uint8Array(out.t.length);
          out.stale[k] = 1;
        }
      }
      if (
        Atomics.load(ints, at + TOTAL) !== total ||
        Atomics.load(ints, at + VERSION) !== version
      ) {
        continue;
      }
      const m = out.length;
      return { t: out.t.subarray(0, m), v: out.v.subarray(0, m), stale: out.stale?.subarray(0, m) };
    }
    return undefined;
  }

  /** Samples a ring can answer from now (at most {@link RECENT_SAMPLES}). */
  held(ref: number): number {
    this.locate(ref);
    const { ints, at } = this;
    const total = Atomics.load(ints, at + TOTAL);
    return total - Math.max(Atomics.load(ints, at + START), total - RECENT_SAMPLES);
  }

  /** Points the ring fields at `ref`'s ring. */
  private locate(ref: number): void {
    const id = refSegment(ref);
    let views = this.views[id];
    if (views === undefined) {
      const buffer = this.segments.buffer(id);
      views = {
        ints: new Int32Array(buffer),
        floats: new Float64Array(buffer),
        bytes: new Uint8Array(buffer),
      };
      this.views[id] = views;
    }
    this.ints = views.ints;
    this.floats = views.floats;
    this.bytes = views.bytes;
    this.at = refOffset(ref) / 4;
  }
}

function buffer(n: number, scratch?: SampleScratch): SampleBuffer {
  if (scratch !== undefined) return scratch.reset(n);
  return { t: new Float64Array(n), v: new Float64Array(n), stale: undefined, length: 0 };
}
