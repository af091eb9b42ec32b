import type { Labels } from './labels';
import { MemorySeries } from './memory-series';
import { intersectSorted, Postings } from './postings';
import type { Querier, Queryable, SelectedSeries, SeriesMatcher } from './queryable';

/**
 * The in-memory metric store: series by label set, a postings index intersected for selectors,
 * samples in compact per-series arrays.
 */
export class MemoryStore implements Queryable {
  /** Series by id, in id order; ids stay with a series for its life (the WAL refers to them). */
  private readonly series = new Map<number, MemorySeries>();
  private readonly byKey = new Map<string, MemorySeries>();
  private postings = new Postings();
  private nextId = 0;

  /** Appends one sample (or staleness marker) to the series `labels`, creating it if new. */
  append(labels: Labels, t: number, v: number, stale = false): void {
    this.seriesFor(labels).append(t, v, stale);
  }

  /** The series with exactly these labels, created when it does not exist. */
  seriesFor(labels: Labels): MemorySeries {
    return this.byKey.get(labels.key) ?? this.create(labels, this.nextId);
  }

  /** The series with this id, if it exists. */
  byId(id: number): MemorySeries | undefined {
    return this.series.get(id);
  }

  /** The series with exactly these labels, if it exists. */
  get(labels: Labels): MemorySeries | undefined {
    return this.byKey.get(labels.key);
  }

  /** Creates a series under a given id (when restoring) or the next one. */
  create(labels: Labels, id: number): MemorySeries {
    const series = new MemorySeries(id, labels);
    this.series.set(id, series);
    this.byKey.set(labels.key, series);
    this.postings.add(id, labels.names, labels.values);
    this.nextId = Math.max(this.nextId, id + 1);
    return series;
  }

  /** Every series, in id order. */
  all(): IterableIterator<MemorySeries> {
    return this.series.values();
  }

  get seriesCount(): number {
    return this.series.size;
  }

  get sampleCount(): number {
    let total = 0;
    for (const s of this.series.values()) total += s.length;
    return total;
  }

  querier(_mint?: number, _maxt?: number): Querier {
    return { select: (matchers) => this.select(matchers) };
  }

  /**
   * Series matching every matcher, in the order they were created (as upstream's head answers an
   * unsorted select): the engine needs no order, and whoever shows series sorts them.
   */
  select(matchers: readonly SeriesMatcher[]): SelectedSeries[] {
    let ids: number[] | undefined;
    const rest: SeriesMatcher[] = [];
    for (const m of matchers) {
      if (m.matches('')) {
        rest.push(m);
        continue;
      }
      const found =
        m.type === '='
          ? [...this.postings.exact(m.name, m.value)]
          : this.postings.matching(m.name, m.matches);
      ids = ids === undefined ? found : intersectSorted(ids, found);
      if (ids.length === 0) return [];
    }
    const candidates =
      ids === undefined
        ? [...this.series.values()]
        : ids.map((id) => this.series.get(id) as MemorySeries);
    if (rest.length === 0) return candidates;
    return candidates.filter((s) => rest.every((m) => m.matches(s.labels.get(m.name))));
  }

  /** Drops chunks older than `mint` and series left empty; ids of the rest do not change. */
  truncateBefore(mint: number): void {
    let removed = false;
    for (const [id, series] of this.series) {
      if (series.truncateBefore(mint) > 0) continue;
      this.series.delete(id);
      this.byKey.delete(series.labels.key);
      removed = true;
    }
    if (!removed) return;
    this.postings = new Postings();
    for (const series of this.series.values())
      this.postings.add(series.id, series.labels.names, series.labels.values);
  }

  /** Removes every series. */
  clear(): void {
    this.series.clear();
    this.byKey.clear();
    this.postings = new Postings();
  }
}
