import { growableSharedBuffer, growSharedBuffer } from './growable-buffer';

/** Largest size of one segment: 4 MiB, addressed in 8-byte units by 19 bits of a chunk ref. */
export const SEGMENT_MAX_BYTES = 4 << 20;
const OFFSET_BITS = 19;
/** Segments one store may have (12 bits of a ref): 16 GiB of chunk bytes. */
export const MAX_SEGMENTS = 1 << 12;
/** How much a segment grows at a time. */
const GROWTH_BYTES = 64 << 10;

/** A chunk's place in shared memory as one int32: segment and 8-byte-aligned offset. */
export function chunkRef(segment: number, offset: number): number {
  return (segment << OFFSET_BITS) | (offset >>> 3);
}

export function refSegment(ref: number): number {
  return ref >>> OFFSET_BITS;
}

export function refOffset(ref: number): number {
  return (ref & ((1 << OFFSET_BITS) - 1)) << 3;
}

/**
 * The shared memory chunk bytes live in: segments of growable `SharedArrayBuffer`s, by id. The
 * writing thread creates and grows them; every reader thread is handed each new segment once
 * (`onCreated`) and sees its growth without being told.
 */
export class ChunkSegments {
  private readonly buffers: SharedArrayBuffer[] = [];
  private readonly views: Uint8Array[] = [];

  /**
   * `onCreated` hands a new segment to readers (the writing thread); `onMissing` fetches one a
   * reader has not been handed yet, as it meets a chunk in it (a reader thread).
   */
  constructor(
    private readonly onCreated?: (id: number, buffer: SharedArrayBuffer) => void,
    private readonly onMissing?: (id: number) => void,
  ) {}

  /** A new segment of `bytes` bytes (rounded up to the growth step); its id. */
  create(bytes: number): number {
    const id = this.buffers.length;
    if (id >= MAX_SEGMENTS) throw new Error(`metric store full: ${MAX_SEGMENTS} chunk segments`);
    this.adopt(id, growableSharedBuffer(roundUp(bytes), SEGMENT_MAX_BYTES));
    this.onCreated?.(id, this.buffers[id]);
    return id;
  }

  /** Takes a segment another thread created. */
  adopt(id: number, buffer: SharedArrayBuffer): void {
    this.buffers[id] = buffer;
    this.views[id] = new Uint8Array(buffer);
  }

  /** Grows a segment to hold at least `bytes`; false when that is past its maximum. */
  grow(id: number, bytes: number): boolean {
    return (
      growSharedBuffer(this.buffers[id], Math.min(roundUp(bytes), SEGMENT_MAX_BYTES)) &&
      this.buffers[id].byteLength >= bytes
    );
  }

  /** The bytes of a segment from a ref's offset to the segment's end. */
  from(ref: number): Uint8Array {
    return this.view(refSegment(ref)).subarray(refOffset(ref));
  }

  /** `length` bytes at a ref. */
  at(ref: number, length: number): Uint8Array {
    const offset = refOffset(ref);
    return this.view(refSegment(ref)).subarray(offset, offset + length);
  }

  private view(id: number): Uint8Array {
    if (this.views[id] === undefined) this.onMissing?.(id);
    const view = this.views[id];
    if (view === undefined) throw new Error(`chunk segment ${id} was never handed to this reader`);
    return view;
  }

  size(id: number): number {
    return this.buffers[id].byteLength;
  }

  /** Every segment, for a reader that starts late. */
  all(): [number, SharedArrayBuffer][] {
    return this.buffers.map((buffer, id) => [id, buffer]);
  }

  /** Bytes the segments hold, committed or not yet written. */
  get byteLength(): number {
    let total = 0;
    for (const b of this.buffers) total += b.byteLength;
    return total;
  }
}

function roundUp(bytes: number): number {
  return Math.ceil(Math.max(bytes, 1) / GROWTH_BYTES) * GROWTH_BYTES;
}
