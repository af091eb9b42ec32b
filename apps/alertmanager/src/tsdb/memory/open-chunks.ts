import type { BitBufferGrowth } from '../chunks/bit-stream';
import {
  SAMPLES_PER_CHUNK,
  XorChunk,
  type EncoderFields,
  type XorChunkState,
} from '../chunks/xor-chunk';
import type { StoreMemory } from './store-memory';
import { growArray, resizableArray } from './growable-buffer';

/** Open chunks the arrays first have room for; they double as needed. */
const INITIAL = 1024;
/** Open chunks the arrays can hold: one per series, as many as the chunk table's series. */
const MAX_OPEN = 1 << 26;
/** The smallest slot an open chunk starts in. */
const FIRST_SLOT = 64;

/** The arrays of {@link OpenChunks}: one entry per open chunk. */
interface OpenChunkFields extends EncoderFields {
  /** The head slot the chunk is encoded into: its ref and size. */
  readonly slotRef: Int32Array;
  readonly slotSize: Int32Array;
  /** The chunk's descriptor in the table. */
  readonly chunk: Int32Array;
  readonly series: Int32Array;
}

function fieldsFor(n: number): OpenChunkFields {
  return {
    count: resizableArray(Int32Array, n, MAX_OPEN),
    bitLength: resizableArray(Int32Array, n, MAX_OPEN),
    tDelta: resizableArray(Float64Array, n, MAX_OPEN),
    hi: resizableArray(Uint32Array, n, MAX_OPEN),
    lo: resizableArray(Uint32Array, n, MAX_OPEN),
    leading: resizableArray(Uint8Array, n, MAX_OPEN),
    trailing: resizableArray(Uint8Array, n, MAX_OPEN),
    minT: resizableArray(Float64Array, n, MAX_OPEN),
    maxT: resizableArray(Float64Array, n, MAX_OPEN),
    slotRef: resizableArray(Int32Array, n, MAX_OPEN),
    slotSize: resizableArray(Int32Array, n, MAX_OPEN),
    chunk: resizableArray(Int32Array, n, MAX_OPEN),
    series: resizableArray(Int32Array, n, MAX_OPEN),
  };
}

/**
 * The store's open chunks, one per series being appended to, each encoded straight into a head
 * slot in shared memory and published to readers sample by sample; a full slot moves to a larger
 * one, and `seal` copies the bytes to the closed chunks and frees the slot. An open chunk is a
 * number (its entry in typed arrays that hold each encoder's state), and one `XorChunk` encodes
 * for all of them: at 100,000 series, objects per open chunk (the chunk, its encoder, its bit
 * writer, its bytes' view and their boxed numbers) took about 40 MiB of the main thread's heap;
 * the arrays take 62 bytes an open chunk.
 */
export class OpenChunks implements BitBufferGrowth {
  private readonly fields = fieldsFor(INITIAL);
  private readonly free: number[] = [];
  private used = 0;
  private readonly encoder = new XorChunk(new Uint8Array(0), this);
  /** The open chunk the encoder is writing (whose slot `grow` replaces). */
  private writing = -1;

  constructor(private readonly memory: StoreMemory) {}

  /**
   * A new open chunk of `seriesId` whose first sample is at `minT`, after its chunk `previous`;
   * or (`resumed`) one that goes on after the encoded samples of a checkpoint, copied in as they
   * are. Returns the open chunk; its descriptor is the series' latest.
   */
  open(
    seriesId: number,
    minT: number,
    previous: number,
    resumed?: { bytes: Uint8Array; state: XorChunkState },
  ): number {
    const { memory } = this;
    const at = this.take();
    const f = this.fields;
    const slot = memory.slots.allocate(Math.max(FIRST_SLOT, resumed?.bytes.length ?? 0));
    f.slotRef[at] = slot.ref;
    f.slotSize[at] = slot.size;
    f.series[at] = seriesId;
    f.chunk[at] = memory.table.add(slot.ref, minT, previous);
    const state = resumed?.state;
    f.count[at] = state?.count ?? 0;
    f.bitLength[at] = state?.bitLength ?? 0;
    f.tDelta[at] = state?.tDelta ?? 0;
    f.hi[at] = state?.hi ?? 0;
    f.lo[at] = state?.lo ?? 0;
    f.leading[at] = state?.leading ?? 0xff;
    f.trailing[at] = state?.trailing ?? 0;
    f.minT[at] = state?.minT ?? Infinity;
    f.maxT[at] = state?.maxT ?? -Infinity;
    if (resumed !== undefined) {
      if (resumed.state.bitLength > resumed.bytes.length * 8)
        throw new Error('resumed past the end of the buffer');
      memory.segments.at(slot.ref, slot.size).set(resumed.bytes);
      this.publish(at);
    }
    memory.table.setLatest(seriesId, f.chunk[at]);
    return at;
  }

  /** The open chunk's descriptor in the table. */
  chunk(at: number): number {
    return this.fields.chunk[at];
  }

  length(at: number): number {
    return this.fields.count[at];
  }

  isFull(at: number): boolean {
    return this.fields.count[at] >= SAMPLES_PER_CHUNK;
  }

  byteLength(at: number): number {
    return (this.fields.bitLength[at] + 7) >>> 3;
  }

  append(at: number, t: number, v: number, stale: boolean): void {
    const f = this.fields;
    this.writing = at;
    this.encoder.loadFrom(f, at, this.memory.segments.at(f.slotRef[at], f.slotSize[at]));
    this.encoder.append(t, v, stale);
    this.encoder.saveTo(f, at);
    this.writing = -1;
    this.publish(at);
  }

  /** The encoder's state, saved with the bytes so a restart resumes without decoding them. */
  state(at: number): XorChunkState {
    const f = this.fields;
    return {
      count: f.count[at],
      t: f.maxT[at],
      tDelta: f.tDelta[at],
      hi: f.hi[at],
      lo: f.lo[at],
      leading: f.leading[at],
      trailing: f.trailing[at],
      minT: f.minT[at],
      maxT: f.maxT[at],
      bitLength: f.bitLength[at],
    };
  }

  /** The encoded bytes so far, without copying: valid until the next append. */
  view(at: number): Uint8Array {
    return this.memory.segments.at(this.fields.slotRef[at], this.byteLength(at));
  }

  /** Closes the chunk: its bytes move to the closed chunks at their exact size. */
  seal(at: number): void {
    const { memory } = this;
    const f = this.fields;
    const chunk = f.chunk[at];
    const slotRef = f.slotRef[at];
    const slotSize = f.slotSize[at];
    this.publish(at);
    const bytes = this.view(at);
    memory.table.move(chunk, memory.sealed.store(bytes), bytes.length);
    memory.epochs.retire(() => memory.slots.release(slotRef, slotSize));
    memory.sealedChunk(chunk, f.series[at]);
    this.free.push(at);
  }

  /** Drops the chunk, which its series no longer links to. */
  drop(at: number): void {
    const f = this.fields;
    this.memory.dropHead(f.chunk[at], { ref: f.slotRef[at], size: f.slotSize[at] });
    this.free.push(at);
  }

  /** The encoder outgrew the slot it writes: a larger one takes its bytes (`BitBufferGrowth`). */
  grow(written: Uint8Array, needed: number): Uint8Array {
    const { memory } = this;
    const f = this.fields;
    const at = this.writing;
    const oldRef = f.slotRef[at];
    const oldSize = f.slotSize[at];
    const slot = memory.slots.allocate(needed);
    f.slotRef[at] = slot.ref;
    f.slotSize[at] = slot.size;
    const bytes = memory.segments.at(slot.ref, slot.size);
    bytes.set(written);
    memory.table.move(f.chunk[at], slot.ref);
    memory.epochs.retire(() => memory.slots.release(oldRef, oldSize));
    return bytes;
  }

  /** Lets readers see every sample appended so far. */
  private publish(at: number): void {
    const f = this.fields;
    this.memory.table.publish(f.chunk[at], f.count[at], f.maxT[at]);
  }

  private take(): number {
    const reused = this.free.pop();
    if (reused !== undefined) return reused;
    if (this.used === this.fields.count.length) this.widen(this.used * 2);
    return this.used++;
  }

  /** Grows every field in place (resizable buffers: nothing is copied, nothing left behind). */
  private widen(n: number): void {
    for (const field of Object.values(this.fields)) growArray(field, n);
  }
}
