import { chunkRef, SEGMENT_BYTES, type ChunkSegments } from './chunk-segments';

/** Slot sizes of open chunks: a chunk moves to the next size when it outgrows its slot. */
const SLOT_SIZES = [64, 128, 256, 512, 1024, 2048, 4096, 8192];

interface SizeClass {
  readonly size: number;
  /** The segment slots are cut from, -1 before the first. */
  segment: number;
  used: number;
  readonly free: number[];
}

/**
 * Slots for the chunks being appended to (one per series), in shared memory so query threads
 * read them as they fill. Slots come in a few sizes, each from segments of its own, and freed
 * slots are reused by the same size, so the open chunks never fragment memory.
 */
export class HeadSlots {
  private readonly classes: SizeClass[] = SLOT_SIZES.map((size) => ({
    size,
    segment: -1,
    used: 0,
    free: [],
  }));

  constructor(private readonly segments: ChunkSegments) {}

  /** The size of the slot that holds `bytes`. */
  static sizeFor(bytes: number): number {
    const size = SLOT_SIZES.find((s) => s >= bytes);
    if (size === undefined) throw new Error(`chunk of ${bytes} bytes is larger than any slot`);
    return size;
  }

  /** A zeroed slot of at least `bytes`: its ref and size. */
  allocate(bytes: number): { ref: number; size: number } {
    const cls = this.classes[SLOT_SIZES.indexOf(HeadSlots.sizeFor(bytes))];
    const reused = cls.free.pop();
    if (reused !== undefined) {
      this.segments.at(reused, cls.size).fill(0);
      return { ref: reused, size: cls.size };
    }
    // A slot never handed out is still as its new segment was made: zeroed.
    if (cls.segment < 0 || cls.used + cls.size > SEGMENT_BYTES) {
      cls.segment = this.segments.create();
      cls.used = 0;
    }
    const ref = chunkRef(cls.segment, cls.used);
    cls.used += cls.size;
    return { ref, size: cls.size };
  }

  /** Gives a slot back; only once no reader can still be reading it. */
  release(ref: number, size: number): void {
    this.classes[SLOT_SIZES.indexOf(size)].free.push(ref);
  }
}
