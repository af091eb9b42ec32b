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
 * The newest samples kept uncompressed besides the chunks: enough for a 5-minute window at a
 * 15-second interval (rules' `rate(...[5m])`, the 5-minute lookback), so the queries rules run
 * every interval read them without decoding a chunk.
 */
export const RECENT_SAMPLES = 32;

/**
 * One series' samples, compressed in Gorilla-style XOR chunks of up to 240 samples (about 1.3
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
  /**
   * The newest samples, a ring of `RECENT_SAMPLES`: timestamps in the first half, values in the
   * second (one array, so a query touches one block of memory per series); `recentAt` is the
   * slot the next one takes.
   */
  private readonly recent = new Float64Array(2 * RECENT_SAMPLES);
  private recentStale = 0;
  private recentAt = 0;
  private recentCount = 0;

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
    this.remember(t, v, isStale);
    this.lastT = t;
    this.lastV = v;
    this.lastStale = isStale;
    this.count++;
  }

  /**
   * Samples with `mint <= t <= maxt`: from the recent ring when it reaches back to `mint`, else
   * decoded from the chunks that hold them, into one buffer.
   */
  samples(mint: number, maxt: number, scratch?: SampleScratch): SampleRun {
    if (this.recentCount > 0 && (this.recentCount === this.count || this.oldestRecent() < mint)) {
      return this.recentSamples(mint, maxt, scratch);
    }
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
    // The ring keeps only the newest samples that are still stored.
    this.recentCount = Math.min(this.recentCount, this.count);
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
    const closed = chunks.slice(0, -1);
    this.closed.push(...closed);
    for (const c of closed) this.count += c.count;
    // The ring starts with the newest samples of the closed chunks that the head does not hold,
    // so recent windows read without decoding after a restart as before it.
    const earlier: { t: number; v: number; stale: boolean }[] = [];
    for (let i = closed.length - 1; i >= 0 && earlier.length + last.count < RECENT_SAMPLES; i--) {
      const chunk = decodeXorChunk(closed[i].bytes, closed[i].count);
      const take = Math.min(chunk.t.length, RECENT_SAMPLES - last.count - earlier.length);
      for (let k = chunk.t.length - 1; k >= chunk.t.length - take; k--) {
        earlier.push({ t: chunk.t[k], v: chunk.v[k], stale: chunk.stale?.[k] === 1 });
      }
    }
    for (const sample of earlier.reverse()) this.remember(sample.t, sample.v, sample.stale);
    const decoded = decodeXorChunk(last.bytes, last.count);
    for (let i = 0; i < decoded.t.length; i++)
      this.append(decoded.t[i], decoded.v[i], decoded.stale?.[i] === 1);
    this.lastT = last.maxT;
  }

  private remember(t: number, v: number, isStale: boolean): void {
    const slot = this.recentAt;
    this.recent[slot] = t;
    this.recent[RECENT_SAMPLES + slot] = isStale ? NaN : v;
    // Staleness of each slot as a bit of one 32-bit word.
    this.recentStale = isStale ? this.recentStale | (1 << slot) : this.recentStale & ~(1 << slot);
    this.recentAt = (slot + 1) % RECENT_SAMPLES;
    if (this.recentCount < RECENT_SAMPLES) this.recentCount++;
  }

  private oldestRecent(): number {
    return this.recent[(this.recentAt - this.recentCount + RECENT_SAMPLES) % RECENT_SAMPLES];
  }

  private recentSamples(mint: number, maxt: number, scratch?: SampleScratch): SampleRun {
    const n = this.recentCount;
    const out: SampleBuffer = scratch
      ? scratch.reset(n)
      : { t: new Float64Array(n), v: new Float64Array(n), stale: undefined, length: 0 };
    for (let k = 0; k < n; k++) {
      const slot = (this.recentAt - n + k + RECENT_SAMPLES) % RECENT_SAMPLES;
      const t = this.recent[slot];
      if (t < mint) continue;
      if (t > maxt) break;
      const at = out.length++;
      out.t[at] = t;
      out.v[at] = this.recent[RECENT_SAMPLES + slot];
      if ((this.recentStale >>> slot) & 1) {
        out.stale ??= new Uint8Array(out.t.length);
        out.stale[at] = 1;
      }
    }
    const m = out.length;
    return { t: out.t.subarray(0, m), v: out.v.subarray(0, m), stale: out.stale?.subarray(0, m) };
  }

  private cut(): void {
    const head = this.head;
    this.closed.push({ bytes: head.bytes(), count: head.length, minT: head.minT, maxT: head.maxT });
    this.head = new XorChunk();
  }
}
