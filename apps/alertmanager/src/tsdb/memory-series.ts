import {
  decodeXorChunk,
  decodeXorChunkInto,
  XorChunk,
  type SampleBuffer,
} from './chunks/xor-chunk';
import type { Labels } from './labels';
import type { SampleRun, SampleScratch } from './queryable';

/** Why a sample was refused, in upstream's words. */
export class SampleRejectedError extends Error {}

/** A closed chunk: its encoded bytes and what is needed to skip it without decoding. */
export interface ClosedChunk {
  readonly bytes: Uint8Array;
  readonly count: number;
  readonly minT: number;
  readonly maxT: number;
}

const EMPTY: SampleRun = { t: new Float64Array(0), v: new Float64Array(0), stale: undefined };

/**
 * One series' samples, compressed in Gorilla-style XOR chunks of up to 120 samples (about 1.3
 * bytes a sample for regular scrapes): no object per sample. Staleness markers are kept apart
 * from NaN values.
 */
export class MemorySeries {
  private readonly closed: ClosedChunk[] = [];
  private head = new XorChunk();
  private lastT = -Infinity;
  private lastV = NaN;
  private lastStale = false;
  private count = 0;

  constructor(
    readonly id: number,
    readonly labels: Labels,
  ) {}

  get length(): number {
    return this.count;
  }

  get lastTimestamp(): number {
    return this.lastT;
  }

  /** Appends a sample at or after the last one; a repeat of the last sample is ignored. */
  append(t: number, v: number, isStale = false): void {
    if (t <= this.lastT) {
      if (t < this.lastT) throw new SampleRejectedError('out of order sample');
      const same =
        this.lastStale === isStale &&
        (isStale || Object.is(this.lastV, v) || (Number.isNaN(v) && Number.isNaN(this.lastV)));
      if (same) return;
      throw new SampleRejectedError('duplicate sample for timestamp');
    }
    if (this.head.isFull) this.cut();
    this.head.append(t, v, isStale);
    this.lastT = t;
    this.lastV = v;
    this.lastStale = isStale;
    this.count++;
  }

  /** Samples with `mint <= t <= maxt`, decoded from the chunks that hold them into one buffer. */
  samples(mint: number, maxt: number, scratch?: SampleScratch): SampleRun {
    let room = 0;
    const wanted: ClosedChunk[] = [];
    for (const chunk of this.closed) {
      if (chunk.maxT < mint || chunk.minT > maxt) continue;
      wanted.push(chunk);
      room += chunk.count;
    }
    const head = this.head.length > 0 && this.head.maxT >= mint && this.head.minT <= maxt;
    if (head) room += this.head.length;
    if (room === 0) return EMPTY;
    const out: SampleBuffer = scratch
      ? scratch.reset(room)
      : { t: new Float64Array(room), v: new Float64Array(room), stale: undefined, length: 0 };
    for (const chunk of wanted) decodeXorChunkInto(chunk.bytes, chunk.count, mint, maxt, out);
    if (head) decodeXorChunkInto(this.head.view(), this.head.length, mint, maxt, out);
    const n = out.length;
    return { t: out.t.subarray(0, n), v: out.v.subarray(0, n), stale: out.stale?.subarray(0, n) };
  }

  /** Drops whole chunks that end before `mint`; returns how many samples remain. */
  truncateBefore(mint: number): number {
    let dropped = 0;
    while (this.closed.length > 0 && this.closed[0].maxT < mint)
      dropped += (this.closed.shift() as ClosedChunk).count;
    if (this.closed.length === 0 && this.head.length > 0 && this.head.maxT < mint) {
      dropped += this.head.length;
      this.head = new XorChunk();
    }
    this.count -= dropped;
    return this.count;
  }

  /** Bytes the encoded samples take. */
  get sampleBytes(): number {
    let total = this.head.byteLength;
    for (const chunk of this.closed) total += chunk.bytes.byteLength;
    return total;
  }

  get chunkCount(): number {
    return this.closed.length + (this.head.length > 0 ? 1 : 0);
  }

  /** Every chunk's bytes, the head's included, oldest first (for a snapshot). */
  exportChunks(): ClosedChunk[] {
    const out = [...this.closed];
    if (this.head.length > 0) {
      out.push({
        bytes: this.head.bytes(),
        count: this.head.length,
        minT: this.head.minT,
        maxT: this.head.maxT,
      });
    }
    return out;
  }

  /** Takes chunks read back from a snapshot; the newest becomes the head again, to append to. */
  importChunks(chunks: readonly ClosedChunk[]): void {
    if (chunks.length === 0) return;
    const last = chunks[chunks.length - 1];
    this.closed.push(...chunks.slice(0, -1));
    for (const c of chunks.slice(0, -1)) this.count += c.count;
    const decoded = decodeXorChunk(last.bytes, last.count);
    for (let i = 0; i < decoded.t.length; i++)
      this.append(decoded.t[i], decoded.v[i], decoded.stale?.[i] === 1);
    this.lastT = last.maxT;
  }

  private cut(): void {
    const head = this.head;
    this.closed.push({ bytes: head.bytes(), count: head.length, minT: head.minT, maxT: head.maxT });
    this.head = new XorChunk();
  }
}
