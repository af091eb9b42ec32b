/**
 * The size of a segment: 4 MiB, addressed in 8-byte units by 19 bits of a chunk ref. A segment is
 * reserved whole; its pages take memory only once written to.
 */
export const SEGMENT_BYTES = 4 << 20;
const OFFSET_BITS = 19;
/** Segments one store may have (12 bits of a ref): 16 GiB of chunk bytes. */
export const MAX_SEGMENTS = 1 << 12;

/** A chunk's place in shared memory as one int32: segment and 8-byte-aligned offset. */
export function chunkRef(segment: number, offset: number): number {
  return (segment << OFFSET_BITS) | (offset >>> 3);
}

/** The segment a chunk ref points into. */
export function refSegment(ref: number): number {
  return ref >>> OFFSET_BITS;
}

/** The byte offset in its segment a chunk ref points at. */
export function refOffset(ref: number): number {
  return (ref & ((1 << OFFSET_BITS) - 1)) << 3;
}

/**
 * The shared memory chunk bytes live in: segments of `SharedArrayBuffer`, by id. The writing
 * thread creates them; every reader thread is handed each new segment once (`onCreated`).
 * Segments are plain (not growable) buffers: V8 reads typed arrays on growable buffers through a
 * slower path, which made decoding chunks about 1.4x slower.
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

  /** A new segment; its id. */
  create(): number {
    const id = this.buffers.length;
    if (id >= MAX_SEGMENTS) throw new Error(`metric store full: ${MAX_SEGMENTS} chunk segments`);
    this.adopt(id, new SharedArrayBuffer(SEGMENT_BYTES));
    this.onCreated?.(id, this.buffers[id]);
    return id;
  }

  /** Takes a segment another thread created. */
  adopt(id: number, buffer: SharedArrayBuffer): void {
    this.buffers[id] = buffer;
    this.views[id] = new Uint8Array(buffer);
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

  /** A whole segment, for typed views of another width. */
  buffer(id: number): SharedArrayBuffer {
    if (this.buffers[id] === undefined) this.onMissing?.(id);
    const buffer = this.buffers[id];
    if (buffer === undefined)
      throw new Error(`chunk segment ${id} was never handed to this reader`);
    return buffer;
  }

  private view(id: number): Uint8Array {
    if (this.views[id] === undefined) this.onMissing?.(id);
    const view = this.views[id];
    if (view === undefined) throw new Error(`chunk segment ${id} was never handed to this reader`);
    return view;
  }

  /** Every segment, for a reader that starts late. */
  all(): [number, SharedArrayBuffer][] {
    return this.buffers.map((buffer, id) => [id, buffer]);
  }

  /** Segments created. */
  get count(): number {
    return this.buffers.length;
  }
}
