import { ChunkSegments } from './chunk-segments';
import { ChunkTable, type ChunkTableBuffers } from './chunk-table';
import { HeadSlots } from './head-slots';
import { ReadEpochs } from './read-epochs';
import { SealedChunks } from './sealed-chunks';

/** What a reader thread is handed to read a store's samples: the table and every segment. */
export interface StoreMemoryHandles {
  readonly table: ChunkTableBuffers;
  readonly segments: readonly (readonly [number, SharedArrayBuffer])[];
}

/**
 * A metric store's samples in shared memory, written by one thread and read by any: the chunk
 * table, the segments chunk bytes live in (open chunks in `HeadSlots`, closed ones in
 * `SealedChunks`), and the epochs that say when memory a reader may be in can be reused.
 */
export class StoreMemory {
  readonly table = ChunkTable.create();
  readonly segments: ChunkSegments;
  readonly slots: HeadSlots;
  readonly sealed: SealedChunks;
  readonly epochs = new ReadEpochs();
  private readonly segmentListeners: ((id: number, buffer: SharedArrayBuffer) => void)[] = [];

  constructor() {
    this.segments = new ChunkSegments((id, buffer) => {
      for (const listener of this.segmentListeners) listener(id, buffer);
    });
    this.slots = new HeadSlots(this.segments);
    this.sealed = new SealedChunks(this.segments, (segment) =>
      this.epochs.retire(() => this.sealed.recycle(segment)),
    );
  }

  /** Everything a reader thread needs now (segments created later: see `onSegment`). */
  handles(): StoreMemoryHandles {
    return { table: this.table.buffers, segments: this.segments.all() };
  }

  /** Tells `listener` of each segment created from now on, before any chunk is put in it. */
  onSegment(listener: (id: number, buffer: SharedArrayBuffer) => void): void {
    this.segmentListeners.push(listener);
  }

  offSegment(onSegment: (id: number, buffer: SharedArrayBuffer) => void): void {
    const at = this.segmentListeners.indexOf(onSegment);
    if (at >= 0) this.segmentListeners.splice(at, 1);
  }

  /** Drops a closed chunk unlinked from its series. */
  dropSealed(chunk: number): void {
    const ref = this.table.ref(chunk);
    this.sealed.release(ref);
    this.epochs.retire(() => this.table.release(chunk));
  }

  /** Drops an open chunk unlinked from its series. */
  dropHead(chunk: number, slot: { ref: number; size: number }): void {
    this.epochs.retire(() => {
      this.slots.release(slot.ref, slot.size);
      this.table.release(chunk);
    });
  }
}

/**
 * The read side of a store's shared memory, on a thread that did not create it. Segments created
 * later are handed over by message; `fetchSegments` takes those already sent when a chunk in a
 * segment not yet seen turns up (the writer sends a segment before it stores a ref to it).
 */
export class StoreMemoryView {
  readonly table: ChunkTable;
  readonly segments: ChunkSegments;

  constructor(handles: StoreMemoryHandles, fetchSegments?: () => void) {
    this.table = new ChunkTable(handles.table);
    this.segments = new ChunkSegments(undefined, fetchSegments);
    for (const [id, buffer] of handles.segments) this.segments.adopt(id, buffer);
  }
}
