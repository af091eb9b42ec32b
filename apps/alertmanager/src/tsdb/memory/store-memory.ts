import { ChunkBytes, isDiskRef, type DiskChunkSource } from './chunk-bytes';
import { ChunkSegments } from './chunk-segments';
import type { ColdChunkSource } from './chunk-reader';
import { ChunkTable, type ChunkTableBuffers } from './chunk-table';
import { HeadSlots } from './head-slots';
import { ReadEpochs } from './read-epochs';
import { OpenChunks } from './open-chunks';
import { RecentRings } from './recent-rings';
import { SealedChunks } from './sealed-chunks';
import { SeriesStates } from './series-states';

/** What a reader thread is handed to read a store's samples: the table and every segment. */
export interface StoreMemoryHandles {
  readonly table: ChunkTableBuffers;
  readonly segments: readonly (readonly [number, SharedArrayBuffer])[];
  /** The chunk database's directory, when closed chunks move to disk. */
  readonly disk?: string;
}

/** Told of closed chunks as they come and go, by the side that moves them to disk. */
export interface ChunkDiskSide {
  /** A chunk was closed in memory (`chunk` is its descriptor). */
  sealed(chunk: number, seriesId: number): void;
  /** A closed chunk still in memory was dropped (chunks on disk go with their batch). */
  droppedInMemory(chunk: number): void;
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
  /** The chunks being appended to, one per series (the writer's side only). */
  readonly open: OpenChunks;
  readonly sealed: SealedChunks;
  readonly rings: RecentRings;
  readonly epochs = new ReadEpochs();
  /** The writer's state of each series, by id. */
  readonly states = new SeriesStates();
  readonly bytes: ChunkBytes;
  /** Where reads on this thread find cold chunks, once closed chunks move to disk. */
  cold: ColdChunkSource | undefined;
  private disk: { side: ChunkDiskSide; dir: string } | undefined;
  private readonly segmentListeners: ((id: number, buffer: SharedArrayBuffer) => void)[] = [];

  constructor() {
    this.segments = new ChunkSegments((id, buffer) => {
      for (const listener of this.segmentListeners) listener(id, buffer);
    });
    this.bytes = new ChunkBytes(this.segments);
    this.slots = new HeadSlots(this.segments);
    this.open = new OpenChunks(this);
    this.rings = new RecentRings(this.segments);
    this.sealed = new SealedChunks(this.segments, (segment) =>
      this.epochs.retire(() => this.sealed.recycle(segment)),
    );
  }

  /**
   * Moves closed chunks to disk from now on: `side` is told of them, `source` reads them back,
   * `cold` finds those cut from their chains.
   */
  attachDisk(
    side: ChunkDiskSide,
    source: DiskChunkSource,
    dir: string,
    cold: ColdChunkSource,
  ): void {
    this.disk = { side, dir };
    this.bytes.disk = source;
    this.cold = cold;
  }

  /** Everything a reader thread needs now (segments created later: see `onSegment`). */
  handles(): StoreMemoryHandles {
    return { table: this.table.buffers, segments: this.segments.all(), disk: this.disk?.dir };
  }

  /** A chunk of `seriesId` was closed (its bytes are in the sealed segments). */
  sealedChunk(chunk: number, seriesId: number): void {
    this.disk?.side.sealed(chunk, seriesId);
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
    if (!isDiskRef(ref)) {
      this.sealed.release(ref);
      this.disk?.side.droppedInMemory(chunk);
    }
    this.epochs.retire(() => this.table.release(chunk));
  }

  /** A ring of recent samples for a series (see `RecentRings`), published to readers. */
  openRing(seriesId: number, coveredFrom: number): number {
    const ring = this.rings.allocate(coveredFrom);
    this.table.setRecentRing(seriesId, ring);
    return ring;
  }

  /** Unlinks a dropped series' ring; it is reused once no read can be in it. */
  dropRing(seriesId: number, ring: number): void {
    this.table.setRecentRing(seriesId, -1);
    this.epochs.retire(() => this.rings.release(ring));
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
 * Chunks on disk are read through `disk`, opened by the caller on `handles.disk`, and cold ones
 * found through `cold`.
 */
export class StoreMemoryView {
  readonly table: ChunkTable;
  readonly segments: ChunkSegments;
  readonly bytes: ChunkBytes;
  readonly rings: RecentRings;

  constructor(
    handles: StoreMemoryHandles,
    fetchSegments?: () => void,
    disk?: DiskChunkSource,
    readonly cold?: ColdChunkSource,
  ) {
    this.table = new ChunkTable(handles.table);
    this.segments = new ChunkSegments(undefined, fetchSegments);
    for (const [id, buffer] of handles.segments) this.segments.adopt(id, buffer);
    this.bytes = new ChunkBytes(this.segments, disk);
    this.rings = new RecentRings(this.segments);
  }
}
