import type { BitBufferGrowth } from '../chunks/bit-stream';
import { XorChunk, type XorChunkState } from '../chunks/xor-chunk';
import type { StoreMemory } from './store-memory';

/**
 * A series' open chunk in shared memory: samples are encoded straight into a head slot and
 * published to readers one by one; a full slot moves to a larger one; `seal` copies the bytes
 * to the closed chunks and frees the slot.
 */
export class HeadChunk implements BitBufferGrowth {
  // The slot as two numbers and the chunk's growth as this object, not an object and a closure
  // per open chunk: there is one per series.
  private slotRef: number;
  private slotSize: number;
  private readonly chunk: XorChunk;
  /** The chunk's descriptor in the table. */
  readonly id: number;

  /**
   * A new open chunk whose first sample is at `minT`, or (`resumed`) one that goes on after the
   * encoded samples of a checkpoint, copied in as they are.
   */
  constructor(
    private readonly memory: StoreMemory,
    private readonly seriesId: number,
    minT: number,
    previous: number,
    resumed?: { bytes: Uint8Array; state: XorChunkState },
  ) {
    const slot = memory.slots.allocate(Math.max(64, resumed?.bytes.length ?? 0));
    this.slotRef = slot.ref;
    this.slotSize = slot.size;
    this.id = memory.table.add(slot.ref, minT, previous);
    const bytes = memory.segments.at(slot.ref, slot.size);
    this.chunk = new XorChunk(bytes, this);
    if (resumed !== undefined) {
      bytes.set(resumed.bytes);
      this.chunk.resume(resumed.state);
      this.publish();
    }
    memory.table.setLatest(seriesId, this.id);
  }

  get length(): number {
    return this.chunk.length;
  }

  get isFull(): boolean {
    return this.chunk.isFull;
  }

  get minT(): number {
    return this.chunk.minT;
  }

  get maxT(): number {
    return this.chunk.maxT;
  }

  get byteLength(): number {
    return this.chunk.byteLength;
  }

  append(t: number, v: number, stale: boolean): void {
    this.chunk.append(t, v, stale);
    this.publish();
  }

  /** Lets readers see every sample appended so far. */
  publish(): void {
    this.memory.table.publish(this.id, this.chunk.length, this.chunk.maxT);
  }

  /** The encoder's state, saved with the bytes so a restart resumes without decoding them. */
  state(): XorChunkState {
    return this.chunk.state();
  }

  /** The encoded bytes so far, without copying. */
  view(): Uint8Array {
    return this.chunk.view();
  }

  /** Closes the chunk: its bytes move to the closed chunks at their exact size. */
  seal(): void {
    const { memory, slotRef, slotSize } = this;
    this.publish();
    const bytes = this.chunk.view();
    memory.table.move(this.id, memory.sealed.store(bytes), bytes.length);
    memory.epochs.retire(() => memory.slots.release(slotRef, slotSize));
    memory.sealedChunk(this.id, this.seriesId);
  }

  /** Drops the chunk, which its series no longer links to. */
  drop(): void {
    this.memory.dropHead(this.id, { ref: this.slotRef, size: this.slotSize });
  }

  /** The encoder outgrew its slot: a larger one takes its bytes (`BitBufferGrowth`). */
  grow(written: Uint8Array, needed: number): Uint8Array {
    const { memory, slotRef, slotSize } = this;
    const slot = memory.slots.allocate(needed);
    this.slotRef = slot.ref;
    this.slotSize = slot.size;
    const bytes = memory.segments.at(slot.ref, slot.size);
    bytes.set(written);
    memory.table.move(this.id, slot.ref);
    memory.epochs.retire(() => memory.slots.release(slotRef, slotSize));
    return bytes;
  }
}
