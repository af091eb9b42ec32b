import type { Labels } from './labels';
import { LabelSetMap } from './label-set-map';
import { intersectSorted, Postings } from './postings';
import type { PostingsStats } from './postings-stats';
import type { SeriesMatcher } from './queryable';

/** What the index keeps of a series. */
export interface IndexedSeries {
  readonly id: number;
  readonly labels: Labels;
}

/**
 * Series by id and by label set, with the postings that selectors are answered from: the store's,
 * on the writing thread (a query thread keeps its copy in numbers, `ReplicaIndex`, fed the same
 * changes).
 */
export class SeriesIndex<S extends IndexedSeries> {
  /** Series by id, in id order (ids are handed out ascending). */
  private readonly series = new Map<number, S>();
  /** Series by label set, made at the first `get`. */
  private byLabels: LabelSetMap<S> | undefined;
  private postings = new Postings();

  /** Adds a series; one already there under its id is kept. */
  add(series: S): void {
    if (this.series.has(series.id)) return;
    this.series.set(series.id, series);
    this.byLabels?.set(series);
    this.postings.add(series.id, series.labels.names, series.labels.values);
  }

  /** Forgets series; the postings are rebuilt once for all of them. */
  remove(ids: Iterable<number>): void {
    let removed = false;
    for (const id of ids) {
      const series = this.series.get(id);
      if (series === undefined) continue;
      this.series.delete(id);
      this.byLabels?.delete(series.labels);
      removed = true;
    }
    if (!removed) return;
    this.postings = new Postings();
    for (const s of this.series.values()) this.postings.add(s.id, s.labels.names, s.labels.values);
  }

  byId(id: number): S | undefined {
    return this.series.get(id);
  }

  get(labels: Labels): S | undefined {
    if (this.byLabels === undefined) {
      this.byLabels = new LabelSetMap((s) => s.labels);
      for (const s of this.series.values()) this.byLabels.set(s);
    }
    return this.byLabels.get(labels);
  }

  all(): IterableIterator<S> {
    return this.series.values();
  }

  get size(): number {
    return this.series.size;
  }

  /** The postings' cardinality lists (see {@link Postings.stats}). */
  postingsStats(metricLabel: string): Promise<PostingsStats> {
    return this.postings.stats(metricLabel);
  }

  /**
   * Series matching every matcher, in the order they were created (as upstream's head answers an
   * unsorted select): the engine needs no order, and whoever shows series sorts them.
   */
  select(matchers: readonly SeriesMatcher[]): S[] {
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
      ids === undefined ? [...this.series.values()] : ids.map((id) => this.series.get(id) as S);
    if (rest.length === 0) return candidates;
    return candidates.filter((s) => rest.every((m) => m.matches(s.labels.get(m.name))));
  }
}
