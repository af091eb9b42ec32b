import { detached } from '../tsdb/detached-string';
import type { Labels } from '../tsdb/labels';
import { LabelSetMap } from '../tsdb/label-set-map';

/**
 * A series a scrape loop writes, by its label set: the scrapes that wrote it and whose staleness
 * tracking included it, as stamps (scrape numbers) rather than sets built per scrape: a scrape of
 * 100,000 series built two maps and a list of them, all promoted before its write completed.
 */
export interface LoopSeries {
  readonly labels: Labels;
  /** The last scrape that wrote it: a second sample of it in that scrape is not written. */
  writtenIn: number;
  /** The last scrape that tracked it (a staleness marker follows when it is gone)... */
  trackedIn: number;
  /** ... and the one before, for a scrape that fails after it tracked the series. */
  trackedBefore: number;
}

/** A series text: its series (null: dropped by relabeling), and the last scrape that gave it. */
interface CachedText {
  readonly series: LoopSeries | null;
  iteration: number;
}

/**
 * A scrape loop's cache, as upstream's scrape cache: series by their text (`ScrapedSample.series`)
 * with their labels after the target's labels and `metric_relabel_configs`, so a series scraped
 * before is not merged nor relabeled again and keeps one label set from scrape to scrape; and the
 * series written, by label set (texts whose labels are equal share one), stamped with the scrapes
 * that wrote and tracked them. A successful scrape drops the texts and series it did not give;
 * one that comes back is read in full and counted as added again, as upstream counts it.
 */
export class ScrapeCache {
  private readonly texts = new Map<string, CachedText>();
  private readonly series = new LabelSetMap<LoopSeries>((series) => series.labels);
  /** Whether the text of a series is cached (the parser may pass over its label block). */
  has(text: string): boolean {
    return this.texts.has(text);
  }

  /**
   * The series of a cached text, stamped as given by scrape `iteration` (null: dropped by
   * relabeling); undefined when the text is not cached.
   */
  get(text: string | undefined, iteration: number): LoopSeries | null | undefined {
    const cached = text === undefined ? undefined : this.texts.get(text);
    if (cached === undefined) return undefined;
    cached.iteration = iteration;
    return cached.series;
  }

  /**
   * Caches a text not cached with its labels as stored (null: dropped by relabeling), copied out
   * of the scrape body (`detached`) so the cache never holds a body; returns its series.
   */
  add(text: string | undefined, iteration: number, labels: Labels | null): LoopSeries | null {
    let series: LoopSeries | null = null;
    if (labels !== null) {
      series = this.series.get(labels) ?? null;
      if (series === null) {
        series = { labels, writtenIn: -1, trackedIn: -1, trackedBefore: -1 };
        this.series.set(series);
      }
    }
    if (text !== undefined) this.texts.set(detached(text), { series, iteration });
    return series;
  }

  /** Stamps `series` as tracked by scrape `iteration`. */
  track(series: LoopSeries, iteration: number): void {
    if (series.trackedIn === iteration) return;
    series.trackedBefore = series.trackedIn;
    series.trackedIn = iteration;
  }

  /**
   * Calls `stale` for each series the scrape before `iteration` tracked and `iteration` does not
   * (every one of them when it failed: `ok` false, its own stamps then undone).
   */
  goneStale(iteration: number, ok: boolean, stale: (labels: Labels) => void): void {
    for (const series of this.series.values()) {
      const now = series.trackedIn === iteration;
      const before = now ? series.trackedBefore : series.trackedIn;
      if (before === iteration - 1 && !(ok && now)) stale(series.labels);
      if (now && !ok) series.trackedIn = series.trackedBefore = -1;
    }
  }

  /** The series scrape `iteration` tracked. */
  *trackedIn(iteration: number): IterableIterator<Labels> {
    for (const series of this.series.values()) {
      if (series.trackedIn === iteration) yield series.labels;
    }
  }

  /** Drops the texts and the series a successful scrape `iteration` did not give. */
  forgetUnscraped(iteration: number): void {
    for (const [text, cached] of this.texts) {
      if (cached.iteration !== iteration) this.texts.delete(text);
    }
    const gone: Labels[] = [];
    for (const series of this.series.values()) {
      if (series.writtenIn !== iteration) gone.push(series.labels);
    }
    for (const labels of gone) this.series.delete(labels);
  }
}
