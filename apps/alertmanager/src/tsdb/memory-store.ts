import { LabelStrings } from './label-strings';
import type { Labels } from './labels';
import { MemorySeries } from './memory-series';
import {
  SampleScratch,
  type Querier,
  type Queryable,
  type SelectedSeries,
  type SeriesMatcher,
} from './queryable';
import { SeriesIndex } from './series-index';
import type { PostingsStats } from './postings-stats';
import { StoreMemory } from './memory/store-memory';
import { nextTurn } from '../time/next-turn';
import { TimeSlices } from '../time/time-slices';

/** Series aged out, or truncated by the retention, between two turns of the event loop. */
const SERIES_SLICE = 2000;
/** How long a slice of the rings' opening runs before the event loop turns. */
const FILL_SLICE_MS = 5;

/** Told of the series a store creates and drops, to keep a copy of its index (query threads). */
export interface SeriesListener {
  seriesCreated(series: MemorySeries): void;
  seriesDropped(ids: readonly number[]): void;
}

/**
 * The in-memory metric store: series by label set, a postings index intersected for selectors,
 * samples in compressed chunks in shared memory (`memory`) that query threads read as well.
 */
export class MemoryStore implements Queryable {
  readonly memory = new StoreMemory();
  private readonly index = new SeriesIndex<MemorySeries>();
  private readonly strings = new LabelStrings();
  private readonly listeners: SeriesListener[] = [];
  private nextId = 0;
  /** Series whose rings of recent samples a query thread asked for, not opened yet. */
  private readonly ringsWanted = new Set<number>();
  private ringsOpening: Promise<void> | undefined;

  /** Appends one sample (or staleness marker) to the series `labels`, creating it if new. */
  append(labels: Labels, t: number, v: number, stale = false): void {
    this.seriesFor(labels).append(t, v, stale);
  }

  /** The series with exactly these labels, created when it does not exist. */
  seriesFor(labels: Labels): MemorySeries {
    return this.index.get(labels) ?? this.create(labels, this.nextId);
  }

  /** The series with this id, if it exists. */
  byId(id: number): MemorySeries | undefined {
    return this.index.byId(id);
  }

  /** The series with exactly these labels, if it exists. */
  get(labels: Labels): MemorySeries | undefined {
    return this.index.get(labels);
  }

  /**
   * The label set as the store keeps it: the series' own when it exists, else `labels` with the
   * store's strings (see `LabelStrings`). What a caller that holds on to label sets (the scrape
   * cache) keeps, so it holds nothing more than the store.
   */
  kept(labels: Labels): Labels {
    return this.index.get(labels)?.labels ?? this.strings.keep(labels);
  }

  /**
   * Creates a series under a given id (when restoring) or the next one; its labels hold the
   * store's strings (`LabelStrings`), never slices of a request or scrape body.
   */
  create(labels: Labels, id: number): MemorySeries {
    const series = new MemorySeries(id, this.strings.keep(labels), this.memory);
    this.index.add(series);
    this.nextId = Math.max(this.nextId, id + 1);
    for (const listener of this.listeners) listener.seriesCreated(series);
    return series;
  }

  /** Tells `listener` of every series created or dropped from now on. */
  listen(listener: SeriesListener): void {
    this.listeners.push(listener);
  }

  unlisten(listener: SeriesListener): void {
    const at = this.listeners.indexOf(listener);
    if (at >= 0) this.listeners.splice(at, 1);
  }

  /** Every series, in id order. */
  all(): IterableIterator<MemorySeries> {
    return this.index.all();
  }

  get seriesCount(): number {
    return this.index.size;
  }

  /** The cardinality lists of the index, `metricLabel`'s values as metric names (in slices). */
  postingsStats(metricLabel: string): Promise<PostingsStats> {
    return this.index.postingsStats(metricLabel);
  }

  get sampleCount(): number {
    let total = 0;
    for (const s of this.index.all()) total += s.length;
    return total;
  }

  querier(_mint?: number, _maxt?: number): Querier {
    return { select: (matchers) => this.select(matchers) };
  }

  /** Series matching every matcher, in the order they were created. */
  select(matchers: readonly SeriesMatcher[]): SelectedSeries[] {
    return this.index.select(matchers);
  }

  /** Drops chunks older than `mint` and series left empty; ids of the rest do not change. */
  truncateBefore(mint: number): void {
    const removed: number[] = [];
    for (const series of this.index.all()) {
      if (!series.truncateBefore(mint)) removed.push(series.id);
    }
    this.drop(removed);
  }

  /**
   * `truncateBefore` in slices that yield to the event loop, for a store that takes appends
   * meanwhile: each series is truncated, and dropped when left empty, in one step, so a sample
   * appended between two slices is never dropped with its series.
   */
  async truncateBeforeInSlices(mint: number): Promise<void> {
    const all = [...this.index.all()];
    for (let from = 0; from < all.length; from += SERIES_SLICE) {
      if (from > 0) await nextTurn();
      const removed: number[] = [];
      for (const series of all.slice(from, from + SERIES_SLICE)) {
        if (this.byId(series.id) === series && !series.truncateBefore(mint)) {
          removed.push(series.id);
        }
      }
      this.drop(removed);
    }
  }

  /**
   * Makes the chunks that end before `before` cold where `coldable` allows (see
   * `MemorySeries.ageOut`), yielding to the event loop between slices of series; resolves to how
   * many chunks left memory.
   */
  async ageOut(before: number, coldable: (seq: number) => boolean): Promise<number> {
    this.memory.table.setColdBefore(before);
    let cut = 0;
    let n = 0;
    for (const series of [...this.index.all()]) {
      cut += series.ageOut(before, coldable);
      if (++n % SERIES_SLICE === 0) await nextTurn();
    }
    return cut;
  }

  /**
   * Opens and fills the rings of recent samples of series a query thread read from the chunks
   * (see `MemorySeries.fillRecent`), in slices of a few milliseconds that yield to the event
   * loop; ids already waiting are not queued twice.
   */
  openRings(ids: Iterable<number>): void {
    for (const id of ids) this.ringsWanted.add(id);
    this.ringsOpening ??= this.openWantedRings().finally(() => (this.ringsOpening = undefined));
  }

  /** Resolves once no ring is waiting to be opened. */
  async ringsOpened(): Promise<void> {
    while (this.ringsOpening !== undefined) await this.ringsOpening;
  }

  private async openWantedRings(): Promise<void> {
    const scratch = new SampleScratch();
    const slices = new TimeSlices(FILL_SLICE_MS);
    for (const id of this.ringsWanted) {
      this.ringsWanted.delete(id);
      this.byId(id)?.fillRecent(scratch);
      if (slices.due()) await slices.next();
    }
  }

  /** Removes every series. */
  clear(): void {
    this.truncateBefore(Infinity);
  }

  private drop(ids: number[]): void {
    if (ids.length === 0) return;
    for (const id of ids) this.index.byId(id)?.release();
    this.index.remove(ids);
    if (this.strings.wantsRebuild) {
      const live = Array.from(this.index.all(), (series) => series.labels);
      void this.strings.rebuild(live);
    }
    for (const listener of this.listeners) listener.seriesDropped(ids);
  }
}
