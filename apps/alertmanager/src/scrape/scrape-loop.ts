import type { ScrapeConfig } from '../config';
import type { BodyBuffer, BodyBufferPool, HttpClient } from '../http-client';
import type { Logger } from '../logging/logger';
import type { Clock } from '../time/clock';
import type { Scheduler, TimerHandle } from '../time/scheduler';
import { detached } from '../tsdb/detached-string';
import { Labels } from '../tsdb/labels';
import { LabelSetMap } from '../tsdb/label-set-map';
import { ExemplarRefusal, type Exemplar } from '../tsdb/exemplars';
import { MetadataCache, type MetadataSink } from './metadata-cache';
import type { ScrapedExemplar } from './openmetrics-exemplar';
import { withTargetLabels } from './sample-labels';
import { httpStatusText, requestErrorText } from './scrape-error';
import { publicLabels, type ScrapeTarget } from './scrape-target';

/** A sample as a parser yields it: labels with `__name__`, value, and its own time if it has one. */
export interface ScrapedSample {
  readonly labels: Labels;
  /**
   * The series as the target wrote it (metric name and label block): the same text is the same
   * series, so the scrape cache finds its labels by it.
   */
  readonly series?: string;
  readonly value: number;
  readonly timestampMs?: number;
  /** OpenMetrics: the exemplar after ` # ` (only samples that have one carry the property). */
  readonly exemplar?: ScrapedExemplar;
}

/** Samples of one scrape, appended together (the metric store's `MetricAppender`). */
export interface ScrapeAppender {
  add(labels: Labels, t: number, v: number): unknown;
  addStale(labels: Labels, t: number): unknown;
  /** Appends the samples; `written` resolves once they are written to the store's log. */
  commit(): { readonly written: Promise<void> };
}

/** What a scrape loop runs on. */
export interface ScrapeLoopDeps {
  readonly clock: Clock;
  readonly scheduler: Scheduler;
  readonly logger: Logger;
  readonly storage: {
    appender(): ScrapeAppender;
    /**
     * A new series' labels as the store keeps them (its own strings, shared between series): what
     * the scrape cache holds, so it holds no scrape body and no copy of the store's strings.
     */
    kept(labels: Labels): Labels;
  };
  readonly client: HttpClient;
  /** The memory scrape bodies are read into, shared by the loops of a job. */
  readonly bodies: BodyBufferPool;
  /**
   * Parses a response body of the given content type, handing `metadata` the `# TYPE`, `# HELP`
   * and `# UNIT` lines as it reads them; throws with the parser's message.
   */
  readonly parse: (
    body: string | Uint8Array,
    contentType: string,
    metadata?: MetadataSink,
    /**
     * Series (by `ScrapedSample.series`) whose labels the loop has: the parser may pass over their
     * label blocks, their samples then carrying no labels of their own.
     */
    known?: (series: string) => boolean,
  ) => Iterable<ScrapedSample>;
  /** `metric_relabel_configs`: the sample's new labels, or undefined to drop it. */
  readonly metricRelabel: (labels: Labels) => Labels | undefined;
  /** The `Accept` header Prometheus sends. */
  readonly accept: string;
  readonly userAgent: string;
  /** Where the scrapes' exemplars go (the exemplar store); without it they are dropped. */
  readonly exemplars?: { appender(): ScrapeExemplarAppender };
}

/** One scrape's exemplars: each checked as it is added, all stored at commit. */
export interface ScrapeExemplarAppender {
  /** Takes an exemplar of a series; returns why it is refused, when it is. */
  add(series: Labels, exemplar: Exemplar): ExemplarRefusal | undefined;
  commit(): void;
}

/** A scrape's samples as read, before they are written. */
interface ReadSamples {
  /** Samples in the body. */
  readonly scraped: number;
  /** The series written. */
  readonly current: LabelSetMap<Labels>;
  /** The series of `current` that staleness markers follow. */
  readonly tracked: LabelSetMap<Labels>;
  /** Labels, time, value, and whether the series was new to the cache. */
  readonly written: [Labels, number, number, boolean][];
  /** The exemplars of the written samples, with their samples' times (none: no array). */
  readonly exemplars: [Labels, ScrapedExemplar, number][] | undefined;
}

/** A series in the scrape cache: its labels as stored, and the last scrape that gave it. */
interface CachedSeries {
  readonly labels: Labels | null;
  iteration: number;
}

export type TargetHealth = 'up' | 'down' | 'unknown';

/** A target's standing, as `/api/v1/targets` shows it. */
export interface TargetStatus {
  health: TargetHealth;
  lastError: string;
  /** When the last scrape started (ms; 0 before the first) and how long it took. */
  lastScrape: number;
  lastScrapeDurationMs: number;
}

/** Most bytes of a scrape body read (upstream's `body_size_limit` is unlimited by default). */
const MAX_SCRAPE_BYTES = 256 * 1024 * 1024;

/**
 * Scrapes one target every interval, as upstream's scrape loop: at a fixed phase of the interval
 * (from the hash of the target), each scrape's samples with the target's labels, `metric_relabel_configs`
 * applied, written at the scrape's slot time (or their own with `honor_timestamps`), with the
 * report series (`up`, `scrape_duration_seconds`, `scrape_samples_scraped`,
 * `scrape_samples_post_metric_relabeling`, `scrape_series_added`). A series the target stops
 * exposing, every series of a failed scrape and, two intervals after the loop stops, every
 * series it wrote get a staleness marker; as upstream, not a series written at its own timestamp,
 * unless `track_timestamps_staleness` is set.
 */
export class ScrapeLoop {
  readonly status: TargetStatus = {
    health: 'unknown',
    lastError: '',
    lastScrape: 0,
    lastScrapeDurationMs: 0,
  };
  /** The metric metadata of the target's scrapes, for `/api/v1/metadata`. */
  readonly metadata = new MetadataCache();
  /** The size of the last scrape's body: an empty one does not end a metadata iteration. */
  private bodyLength = 0;

  private readonly targetLabels: Labels;
  private timer: TimerHandle | undefined;
  private stopped = false;
  private lastSlot = 0;
  /** Series of the last scrape that go stale when they disappear, by key. */
  private seen = labelSets();
  /**
   * Series by their text (`ScrapedSample.series`), with their labels after the target's labels
   * and `metric_relabel_configs` (null: dropped), as upstream's scrape cache: a series scraped
   * before is not merged with the target's labels nor relabeled again, and keeps one label set
   * from scrape to scrape. A successful scrape drops the series it did not give; one that comes
   * back is read in full and counted in `scrape_series_added` again, as upstream counts it.
   */
  private readonly cache = new Map<string, CachedSeries>();
  /** The scrape the cache's entries are stamped with. */
  private iteration = 0;
  /** Whether the last `labelsOf` found nothing in the cache. */
  private missed = false;

  constructor(
    readonly target: ScrapeTarget,
    readonly config: ScrapeConfig,
    private readonly deps: ScrapeLoopDeps,
  ) {
    this.targetLabels = publicLabels(target.labels);
  }

  start(): void {
    const interval = this.config.scrapeIntervalMs;
    const offset = Number(
      this.target.labels.with('__url__', this.target.url).hash() % BigInt(interval),
    );
    const now = this.deps.clock.now();
    const slot = Math.floor((now - offset) / interval) * interval + offset + interval;
    this.schedule(slot);
  }

  /** Stops scraping; the series it wrote go stale two intervals later unless written again. */
  stop(): void {
    this.stopped = true;
    if (this.timer) this.deps.scheduler.clear(this.timer);
    if (this.lastSlot === 0) return;
    const interval = this.config.scrapeIntervalMs;
    const staleAt = this.lastSlot + interval;
    const series = [...this.seen.values(), ...this.reportLabels()];
    this.deps.scheduler.set(this.lastSlot + 2 * interval, () => {
      const appender = this.deps.storage.appender();
      for (const labels of series) appender.addStale(labels, staleAt);
      appender.commit();
    });
  }

  private schedule(slot: number): void {
    this.timer = this.deps.scheduler.set(slot, () => {
      void this.scrape(slot).finally(() => {
        if (this.stopped) return;
        const interval = this.config.scrapeIntervalMs;
        let next = slot + interval;
        const now = this.deps.clock.now();
        if (next <= now) next += Math.ceil((now - next) / interval) * interval;
        this.schedule(next);
      });
    });
  }

  /** One scrape at `slot` (ms), its samples and report series appended together. */
  async scrape(slot: number): Promise<void> {
    const started = performance.now();
    let error = '';
    let read: ReadSamples | undefined;
    const iteration = ++this.iteration;
    const body = this.deps.bodies.take(this.bodyLength);
    try {
      read = this.read(await this.fetch(body), slot, iteration);
    } catch (err) {
      error = (err as Error).message;
    } finally {
      // Every sample has been read from the body: nothing made of it holds its bytes.
      this.deps.bodies.give(body);
    }
    if (this.stopped) return;
    const appender = this.deps.storage.appender();
    let current = labelSets();
    /** The series of `current` that staleness markers follow. */
    let tracked = labelSets();
    let added = 0;
    /** The exemplars of the written samples, with their samples' times (none: no array). */
    let exemplars: [Labels, ScrapedExemplar, number][] | undefined;
    if (read !== undefined) {
      if (this.config.sampleLimit > 0 && read.written.length > this.config.sampleLimit) {
        error = 'sample limit exceeded';
      } else {
        ({ current, tracked, exemplars } = read);
        for (const [labels, t, v, isNew] of read.written) {
          appender.add(labels, t, v);
          if (isNew) added++;
        }
      }
    }
    const scraped = read?.scraped ?? 0;
    for (const labels of this.seen.values()) {
      if (!tracked.has(labels)) appender.addStale(labels, slot);
    }
    this.seen = tracked;
    if (read !== undefined) this.forgetUnscraped(iteration);
    const durationMs = performance.now() - started;
    const up = error === '' ? 1 : 0;
    const report: [string, number][] = [
      ['up', up],
      ['scrape_duration_seconds', durationMs / 1000],
      ['scrape_samples_scraped', scraped],
      ['scrape_samples_post_metric_relabeling', up ? current.size : 0],
      ['scrape_series_added', added],
    ];
    for (const [name, value] of report)
      appender.add(this.targetLabels.with('__name__', name), slot, value);
    const { written } = appender.commit();
    if (exemplars !== undefined) this.appendExemplars(exemplars);
    this.lastSlot = slot;
    this.metadata.iterDone(error === '' && this.bodyLength > 0);
    // The scrape is done once its samples are written. As upstream, a failed write does not make
    // the target down: the store keeps the records for its next write.
    await written.catch((err: Error) =>
      this.deps.logger.error('Scrape commit failed', { target: this.target.url, err: err.message }),
    );
    this.status.health = up ? 'up' : 'down';
    this.status.lastError = error;
    this.status.lastScrape = slot;
    this.status.lastScrapeDurationMs = durationMs;
    if (error !== '')
      this.deps.logger.debug('scrape failed', { target: this.target.url, err: error });
  }

  /**
   * Hands a scrape's exemplars to the exemplar store, one without a time of its own at its
   * sample's time. As upstream, a refused exemplar does not fail the scrape; out-of-order ones
   * are counted in one warning.
   */
  private appendExemplars(exemplars: readonly [Labels, ScrapedExemplar, number][]): void {
    if (this.deps.exemplars === undefined) return;
    const appender = this.deps.exemplars.appender();
    let outOfOrder = 0;
    for (const [series, { labels, value, timestampMs }, sampleTime] of exemplars) {
      const hasTimestamp = timestampMs !== undefined;
      const exemplar = { labels, value, timestampMs: timestampMs ?? sampleTime, hasTimestamp };
      const refusal = appender.add(series, exemplar);
      if (refusal === ExemplarRefusal.outOfOrder) outOfOrder++;
      else if (refusal !== undefined)
        this.deps.logger.debug('Error while adding exemplar', {
          series: series.toString(),
          err: refusal,
        });
    }
    appender.commit();
    if (outOfOrder > 0) {
      this.deps.logger.warn('Error on ingesting out-of-order exemplars', {
        target: this.target.url,
        num_dropped: outOfOrder,
      });
    }
  }

  /**
   * The scrape's samples as they will be written, read one by one as the parser yields them (a
   * sample's parsed labels and text are garbage once it is read, rather than held with the whole
   * body's until the last is read); throws the parser's error, before anything is written.
   */
  private read(samples: Iterable<ScrapedSample>, slot: number, iteration: number): ReadSamples {
    const current = labelSets();
    const tracked = labelSets();
    const written: [Labels, number, number, boolean][] = [];
    let exemplars: [Labels, ScrapedExemplar, number][] | undefined;
    let scraped = 0;
    for (const sample of samples) {
      scraped++;
      const labels = this.labelsOf(sample, iteration);
      if (labels === null || current.has(labels)) continue;
      current.set(labels);
      const own = this.config.honorTimestamps ? sample.timestampMs : undefined;
      if (own === undefined || this.config.trackTimestampsStaleness) tracked.set(labels);
      written.push([labels, own ?? slot, sample.value, this.missed]);
      if (sample.exemplar !== undefined)
        (exemplars ??= []).push([labels, sample.exemplar, own ?? slot]);
    }
    return { scraped, current, tracked, written, exemplars };
  }

  /**
   * A sample's labels as stored (null: dropped by relabeling), from the cache when it has them;
   * a new series' are the store's (`kept`) and its text is copied out of the scrape body
   * (`detached`), so the cache never holds a body.
   */
  private labelsOf(sample: ScrapedSample, iteration: number): Labels | null {
    const cached = sample.series === undefined ? undefined : this.cache.get(sample.series);
    this.missed = cached === undefined;
    if (cached !== undefined) {
      cached.iteration = iteration;
      return cached.labels;
    }
    const relabeled = this.deps.metricRelabel(
      withTargetLabels(sample.labels, this.targetLabels, this.config.honorLabels),
    );
    const labels = relabeled === undefined ? null : this.deps.storage.kept(relabeled);
    if (sample.series !== undefined) this.cache.set(detached(sample.series), { labels, iteration });
    return labels;
  }

  /** Drops the series a successful scrape did not give from the cache. */
  private forgetUnscraped(iteration: number): void {
    for (const [series, cached] of this.cache) {
      if (cached.iteration !== iteration) this.cache.delete(series);
    }
  }

  private async fetch(into: BodyBuffer): Promise<Iterable<ScrapedSample>> {
    const timeoutMs = this.config.scrapeTimeoutMs;
    let response;
    try {
      response = await this.deps.client.send({
        method: 'GET',
        url: this.target.url,
        headers: {
          Accept: this.deps.accept,
          'User-Agent': this.deps.userAgent,
          'X-Prometheus-Scrape-Timeout-Seconds': String(timeoutMs / 1000),
        },
        signal: AbortSignal.timeout(timeoutMs),
        maxBodyBytes: MAX_SCRAPE_BYTES,
        bodyBuffer: into,
      });
    } catch (err) {
      throw new Error(requestErrorText(err, this.target.url));
    }
    if (response.status !== 200)
      throw new Error(`server returned HTTP status ${httpStatusText(response.status)}`);
    if (response.truncated) throw new Error(`body size limit exceeded`);
    const contentType = String(response.headers['content-type'] ?? '');
    const body = response.bytes ?? response.body;
    this.bodyLength = body.length;
    // Series of the last scrape are not read again: the cache has their labels.
    const known = (series: string) => this.cache.has(series);
    return this.deps.parse(body, contentType, this.metadata, known);
  }

  private reportLabels(): Labels[] {
    return [
      'up',
      'scrape_duration_seconds',
      'scrape_samples_scraped',
      'scrape_samples_post_metric_relabeling',
      'scrape_series_added',
    ].map((name) => this.targetLabels.with('__name__', name));
  }
}

/** An empty set of label sets, found by content (no key string per series). */
function labelSets(): LabelSetMap<Labels> {
  return new LabelSetMap((labels) => labels);
}
