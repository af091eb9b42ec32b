import { chunkRef, refSegment, SEGMENT_BYTES, type ChunkSegments } from './chunk-segments';

/**
 * Closed chunks, copied at their exact size one after another into segments in the order they
 * close, so a segment holds chunks of about the same age and empties as the retention drops
 * them. A segment whose chunks are all gone is reused from its start.
 */
export class SealedChunks {
  /** The segment being filled, -1 before the first. */
  private current = -1;
  private used = 0;
  /** Chunks still stored, by segment. */
  private readonly live = new Map<number, number>();
  private readonly emptySegments: number[] = [];

  /** `onEmpty` is told of a segment whose chunks are all gone, to recycle once no reader is in it. */
  constructor(
    private readonly segments: ChunkSegments,
    private readonly onEmpty: (segment: number) => void,
  ) {}

  /** Copies a closed chunk's bytes in; its ref. */
  store(bytes: Uint8Array): number {
    const length = (bytes.length + 7) & ~7;
    if (this.current < 0 || this.used + length > SEGMENT_BYTES) this.nextSegment();
    const ref = chunkRef(this.current, this.used);
    this.segments.at(ref, bytes.length).set(bytes);
    this.used += length;
    this.live.set(this.current, (this.live.get(this.current) ?? 0) + 1);
    return ref;
  }

  /** Forgets a chunk. */
  release(ref: number): void {
    const segment = refSegment(ref);
    const left = (this.live.get(segment) ?? 1) - 1;
    this.live.set(segment, left);
    if (left > 0 || segment === this.current) return;
    this.live.delete(segment);
    this.onEmpty(segment);
  }

  /** Takes an emptied segment back for new chunks. */
  recycle(segment: number): void {
    this.emptySegments.push(segment);
  }

  private nextSegment(): void {
    const previous = this.current;
    if (previous >= 0 && this.live.get(previous) === 0) {
      this.live.delete(previous);
      this.onEmpty(previous);
    }
    const reused = this.emptySegments.pop();
    this.current = reused ?? this.segments.create();
    this.used = 0;
    this.live.set(this.current, 0);
  }
}
