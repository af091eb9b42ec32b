import type { ChunkSegments } from './chunk-segments';

/**
 * Where a closed chunk's bytes are read once it is on disk: by its sequence number, on any
 * thread. The bytes returned are valid until the next read.
 */
export interface DiskChunkSource {
  chunk(seq: number): Uint8Array | undefined;
}

/** The ref of a chunk on disk: its sequence number, as a negative int32 (memory refs are not). */
export function diskRef(seq: number): number {
  return -seq - 1;
}

export function isDiskRef(ref: number): boolean {
  return ref < 0;
}

/** The sequence number a disk ref names. */
export function refSeq(ref: number): number {
  return -ref - 1;
}

/**
 * A chunk's bytes by ref, wherever they are: in a shared memory segment (open chunks and closed
 * ones not yet on disk) or on disk.
 */
export class ChunkBytes {
  constructor(
    readonly segments: ChunkSegments,
    public disk?: DiskChunkSource,
  ) {}

  /** The bytes from a chunk's start (to its segment's end, or the chunk's end on disk). */
  from(ref: number): Uint8Array {
    if (!isDiskRef(ref)) return this.segments.from(ref);
    const bytes = this.disk?.chunk(refSeq(ref));
    if (bytes === undefined) throw new Error(`chunk ${refSeq(ref)} is missing from the disk`);
    return bytes;
  }
}
