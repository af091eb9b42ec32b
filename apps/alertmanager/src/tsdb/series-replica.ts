import { ChunkDatabase } from './disk/chunk-database';
import { ColdChunkIndex } from './disk/cold-chunk-index';
import { forEachCreated, type IndexChanges } from './index-changes';
import { Labels } from './labels';
import type { Querier, Queryable, SampleRun, SampleScratch, SelectedSeries } from './queryable';
import { ReplicaIndex } from './replica-index';
import { readSeriesSamples } from './memory/chunk-reader';
import { hasSamples } from './memory/sample-presence';
import { StoreMemoryView, type StoreMemoryHandles } from './memory/store-memory';

/** The series whose newest samples were read from their chunks for lack of a ring, while recorded. */
interface RinglessReads {
  recording: boolean;
  readonly ids: Set<number>;
}

/** A series of the replica: its labels here, its samples in the store's shared memory. */
class ReplicaSeries implements SelectedSeries {
  constructor(
    readonly id: number,
    readonly labels: Labels,
    private readonly memory: StoreMemoryView,
    /** Told of a read of the newest samples of a series that has no ring. */
    private readonly ringless: RinglessReads,
  ) {}

  samples(mint: number, maxt: number, scratch?: SampleScratch): SampleRun {
    const { table, bytes, cold, rings } = this.memory;
    const ring = table.recentRing(this.id);
    const recent = ring < 0 ? undefined : rings.read(ring, mint, maxt, scratch);
    if (recent !== undefined) return recent;
    const run = readSeriesSamples(table, bytes, this.id, mint, maxt, scratch, cold);
    const n = run.t.length;
    if (ring < 0 && n > 0 && this.ringless.recording) {
      const latest = table.latest(this.id);
      if (latest >= 0 && run.t[n - 1] === table.maxT(latest)) this.ringless.ids.add(this.id);
    }
    return run;
  }

  hasSamples(mint: number, maxt: number): boolean {
    const read = () => this.samples(mint, maxt).t.length > 0;
    return hasSamples(this.memory.table, this.id, mint, maxt, read);
  }
}

/**
 * A metric store as a query thread sees it: its own copy of the index (in numbers, see
 * `ReplicaIndex`), kept by the changes the writing thread sends, over the samples in shared
 * memory and the chunk database (no copy of any sample).
 */
export class SeriesReplica implements Queryable {
  private readonly index = new ReplicaIndex();
  private readonly memory: StoreMemoryView;
  private readonly disk: ChunkDatabase | undefined;
  private readonly cold: ColdChunkIndex | undefined;
  private readonly ringless: RinglessReads = { recording: false, ids: new Set() };

  constructor(handles: StoreMemoryHandles, fetchSegments?: () => void) {
    this.disk = handles.disk === undefined ? undefined : ChunkDatabase.open(handles.disk, true);
    this.cold = this.disk === undefined ? undefined : new ColdChunkIndex(this.disk);
    this.memory = new StoreMemoryView(handles, fetchSegments, this.disk, this.cold);
  }

  /**
   * Lets the next read see every chunk written to disk so far (call before each query), and
   * forgets the cold chunks the last one found.
   */
  refresh(): void {
    this.disk?.refresh();
    this.cold?.clear();
  }

  /**
   * Lets go of what the last query held (call after each query): the cold chunks it found, and
   * its snapshot of the chunk database, which would keep LMDB from reusing the pages freed since.
   */
  release(): void {
    this.refresh();
  }

  /**
   * Records from now on, or no longer, the series whose newest samples are read from their
   * chunks for lack of a ring (see `takeRingless`).
   */
  recordRingless(recording: boolean): void {
    this.ringless.recording = recording;
  }

  /**
   * The series recorded since the last call (the store opens rings for them: the windows rules
   * read again are then read without decoding); undefined when there are none.
   */
  takeRingless(): Int32Array | undefined {
    const { ids } = this.ringless;
    if (ids.size === 0) return undefined;
    const taken = Int32Array.from(ids);
    ids.clear();
    return taken;
  }

  /** Takes a segment the store created after the handles were made. */
  adoptSegment(id: number, buffer: SharedArrayBuffer): void {
    this.memory.segments.adopt(id, buffer);
  }

  apply(changes: IndexChanges): void {
    forEachCreated(changes, (id, names, values) => this.index.add(id, names, values));
    this.index.remove(changes.dropped);
  }

  get seriesCount(): number {
    return this.index.size;
  }

  /** The values label `name` has in the index, sorted (without reading any series). */
  labelValues(name: string): string[] {
    return this.index.valuesOf(name).sort();
  }

  /** How many series match every matcher (without building their label sets). */
  count(matchers: Parameters<Querier['select']>[0]): number {
    return this.index.select(matchers).length;
  }

  querier(_mint?: number, _maxt?: number): Querier {
    return { select: (matchers) => this.select(matchers) };
  }

  /** The series matching every matcher, in the order they were created, with their label sets. */
  private select(matchers: Parameters<Querier['select']>[0]): ReplicaSeries[] {
    const ids = this.index.select(matchers);
    const selected = new Array<ReplicaSeries>(ids.length);
    let names: readonly string[] = [];
    for (let i = 0; i < ids.length; i++) {
      const [own, values] = this.index.labelsOf(ids[i], names);
      names = own;
      // The store's own label sets: sorted, without duplicates or empty values.
      const labels = Labels.ofSorted(own, values);
      selected[i] = new ReplicaSeries(ids[i], labels, this.memory, this.ringless);
    }
    return selected;
  }
}
