import type { BitBufferGrowth } from '../chunks/bit-stream';
import {
  SAMPLES_PER_CHUNK,
  XorChunk,
  type EncoderFields,
  type XorChunkState,
} from '../chunks/xor-chunk';
import type { StoreMemory } from './store-memory';
import { PAGE_MASK, PagedColumns } from './paged-columns';

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
    count: new Int32Array(n),
    bitLength: new Int32Array(n),
    tDelta: new Float64Array(n),
    hi: new Uint32Array(n),
    lo: new Uint32Array(n),
    leading: new Uint8Array(n),
    trailing: new Uint8Array(n),
    minT: new Float64Array(n),
    maxT: new Float64Array(n),
    slotRef: new Int32Array(n),
    slotSize: new Int32Array(n),
    chunk: new Int32Array(n),
    series: new Int32Array(n),
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
  /** The encoders' states, in pages of columns (see `PagedColumns`). */
  private readonly fields = new PagedColumns<OpenChunkFields>(fieldsFor);
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
    const f = this.fields.pageOf(at);
    const i = at & PAGE_MASK;
    const slot = memory.slots.allocate(Math.max(FIRST_SLOT, resumed?.bytes.length ?? 0));
    f.slotRef[i] = slot.ref;
    f.slotSize[i] = slot.size;
    f.series[i] = seriesId;
    f.chunk[i] = memory.table.add(slot.ref, minT, previous);
    const state = resumed?.state;
    f.count[i] = state?.count ?? 0;
    f.bitLength[i] = state?.bitLength ?? 0;
    f.tDelta[i] = state?.tDelta ?? 0;
    f.hi[i] = state?.hi ?? 0;
    f.lo[i] = state?.lo ?? 0;
    f.leading[i] = state?.leading ?? 0xff;
    f.trailing[i] = state?.trailing ?? 0;
    f.minT[i] = state?.minT ?? Infinity;
    f.maxT[i] = state?.maxT ?? -Infinity;
    if (resumed !== undefined) {
      if (resumed.state.bitLength > resumed.bytes.length * 8)
        throw new Error('resumed past the end of the buffer');
      memory.segments.at(slot.ref, slot.size).set(resumed.bytes);
      this.publish(at);
    }
    memory.table.setLatest(seriesId, f.chunk[i]);
    return at;
  }

  /** The open chunk's descriptor in the table. */
  chunk(at: number): number {
    return this.fields.pageOf(at).chunk[at & PAGE_MASK];
  }

  length(at: number): number {
    return this.fields.pageOf(at).count[at & PAGE_MASK];
  }

  isFull(at: number): boolean {
    return this.fields.pageOf(at).count[at & PAGE_MASK] >= SAMPLES_PER_CHUNK;
  }

  byteLength(at: number): number {
    return (this.fields.pageOf(at).bitLength[at & PAGE_MASK] + 7) >>> 3;
  }

  append(at: number, t: number, v: number, stale: boolean): void {
    const f = this.fields.pageOf(at);
    const i = at & PAGE_MASK;
    this.writing = at;
    this.encoder.loadFrom(f, i, this.memory.segments.at(f.slotRef[i], f.slotSize[i]));
    this.encoder.append(t, v, stale);
    this.encoder.saveTo(f, i);
    this.writing = -1;
    this.publish(at);
  }

  /** The encoder's state, saved with the bytes so a restart resumes without decoding them. */
  state(at: number): XorChunkState {
    const f = this.fields.pageOf(at);
    const i = at & PAGE_MASK;
    return {
      count: f.count[i],
      t: f.maxT[i],
      tDelta: f.tDelta[i],
      hi: f.hi[i],
      lo: f.lo[i],
      leading: f.leading[i],
      trailing: f.trailing[i],
      minT: f.minT[i],
      maxT: f.maxT[i],
      bitLength: f.bitLength[i],
    };
  }

  /** The encoded bytes so far, without copying: valid until the next append. */
  view(at: number): Uint8Array {
    return this.memory.segments.at(
      this.fields.pageOf(at).slotRef[at & PAGE_MASK],
      this.byteLength(at),
    );
  }

  /** Closes the chunk: its bytes move to the closed chunks at their exact size. */
  seal(at: number): void {
    const { memory } = this;
    const f = this.fields.pageOf(at);
    const i = at & PAGE_MASK;
    const chunk = f.chunk[i];
    const slotRef = f.slotRef[i];
    const slotSize = f.slotSize[i];
    this.publish(at);
    const bytes = this.view(at);
    memory.table.move(chunk, memory.sealed.store(bytes), bytes.length);
    memory.epochs.retire(() => memory.slots.release(slotRef, slotSize));
    memory.sealedChunk(chunk, f.series[i]);
    this.free.push(at);
  }

  /** Drops the chunk, which its series no longer links to. */
  drop(at: number): void {
    const f = this.fields.pageOf(at);
    const i = at & PAGE_MASK;
    this.memory.dropHead(f.chunk[i], { ref: f.slotRef[i], size: f.slotSize[i] });
    this.free.push(at);
  }

  /** The encoder outgrew the slot it writes: a larger one takes its bytes (`BitBufferGrowth`). */
  grow(written: Uint8Array, needed: number): Uint8Array {
    const { memory } = this;
    const at = this.writing;
    const f = this.fields.pageOf(at);
    const i = at & PAGE_MASK;
    const oldRef = f.slotRef[i];
    const oldSize = f.slotSize[i];
    const slot = memory.slots.allocate(needed);
    f.slotRef[i] = slot.ref;
    f.slotSize[i] = slot.size;
    const bytes = memory.segments.at(slot.ref, slot.size);
    bytes.set(written);
    memory.table.move(f.chunk[i], slot.ref);
    memory.epochs.retire(() => memory.slots.release(oldRef, oldSize));
    return bytes;
  }

  /** Lets readers see every sample appended so far. */
  private publish(at: number): void {
    const f = this.fields.pageOf(at);
    const i = at & PAGE_MASK;
    this.memory.table.publish(f.chunk[i], f.count[i], f.maxT[i]);
  }

  private take(): number {
    const reused = this.free.pop();
    if (reused !== undefined) return reused;
    return this.used++;
  }
}
