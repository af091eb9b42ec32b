import { compareLabels, type Labels } from './labels';
import { MemorySeries } from './memory-series';
import { intersectSorted, Postings } from './postings';
import type { Querier, Queryable, SelectedSeries, SeriesMatcher } from './queryable';

/**
 * The in-memory metric store: series by label set, a postings index intersected for selectors,
 * samples in compact per-series arrays.
 */
export class MemoryStore implements Queryable {
  private readonly series: MemorySeries[] = [];
  private readonly byKey = new Map<string, MemorySeries>();
  private postings = new Postings();

  /** Appends one sample (or staleness marker) to the series `labels`, creating it if new. */
  append(labels: Labels, t: number, v: number, stale = false): void {
    this.seriesFor(labels).append(t, v, stale);
  }

  /** The series with exactly these labels, created when it does not exist. */
  seriesFor(labels: Labels): MemorySeries {
    let series = this.byKey.get(labels.key);
    if (series === undefined) {
      series = new MemorySeries(this.series.length, labels);
      this.series.push(series);
      this.byKey.set(labels.key, series);
      this.postings.add(series.id, labels.names, labels.values);
    }
    return series;
  }

  get seriesCount(): number {
    return this.series.length;
  }

  get sampleCount(): number {
    let total = 0;
    for (const s of this.series) total += s.length;
    return total;
  }

  querier(): Querier {
    return { select: (matchers) => this.select(matchers) };
  }

  /** Series matching every matcher, sorted by labels. */
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
    const candidates = ids === undefined ? this.series : ids.map((id) => this.series[id]);
    const selected = candidates.filter((s) => rest.every((m) => m.matches(s.labels.get(m.name))));
    selected.sort((a, b) => compareLabels(a.labels, b.labels));
    return selected;
  }

  /** Drops samples older than `mint` and series left empty. */
  truncateBefore(mint: number): void {
    const kept = this.series.filter((s) => s.truncateBefore(mint) > 0);
    if (kept.length === this.series.length) return;
    this.series.length = 0;
    this.byKey.clear();
    this.postings = new Postings();
    for (const old of kept) {
      const series = this.seriesFor(old.labels);
      const run = old.samples(-Infinity, Infinity);
      for (let i = 0; i < run.t.length; i++)
        series.append(run.t[i], run.v[i], run.stale?.[i] === 1);
    }
  }

  /** Removes every series. */
  clear(): void {
    this.series.length = 0;
    this.byKey.clear();
    this.postings = new Postings();
  }
}
