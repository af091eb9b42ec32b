import type { ScrapeConfig } from '../config';
import type { BodyBuffer, BodyBufferPool, HttpClient } from '../http-client';
import type { Logger } from '../logging/logger';
import type { Clock } from '../time/clock';
import type { Scheduler, TimerHandle } from '../time/scheduler';
import { Labels } from '../tsdb/labels';
import { ExemplarRefusal, type Exemplar } from '../tsdb/exemplars';
import { MetadataCache, type MetadataSink } from './metadata-cache';
import { ScrapeCache } from './scrape-cache';
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

/** What reading a scrape's samples into its appender counted. */
interface ReadCounts {
  /** Samples in the body. */
  readonly scraped: number;
  /** Series written (a second sample of one series in a scrape is not). */
  readonly written: number;
  /** Series written that were new to the cache. */
  readonly added: number;
  /** The exemplars of the written samples, with their samples' times (none: no array). */
  readonly exemplars: [Labels, ScrapedExemplar, number][] | undefined;
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
  /** Series by their text and by label set, stamped with the scrapes that wrote them. */
  private readonly cache = new ScrapeCache();
  /** The scrape the cache's entries and the series are stamped with. */
  private iteration = 0;
  /** The last scrape that completed (its samples appended). */
  private completed = 0;
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
    const series = [...this.cache.trackedIn(this.completed), ...this.reportLabels()];
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
    let read: ReadCounts | undefined;
    const iteration = ++this.iteration;
    let appender = this.deps.storage.appender();
    const body = this.deps.bodies.take(this.bodyLength);
    try {
      const samples = await this.fetch(body);
      if (!this.stopped) read = this.read(samples, appender, slot, iteration);
    } catch (err) {
      error = (err as Error).message;
    } finally {
      // Every sample has been read from the body: nothing made of it holds its bytes.
      this.deps.bodies.give(body);
    }
    if (this.stopped) return;
    if (read !== undefined && this.config.sampleLimit > 0 && read.written > this.config.sampleLimit)
      error = 'sample limit exceeded';
    // A scrape that failed part way writes none of its samples: its appender is left uncommitted.
    if (error !== '') appender = this.deps.storage.appender();
    this.cache.goneStale(iteration, error === '', (labels) => appender.addStale(labels, slot));
    if (read !== undefined) this.cache.forgetUnscraped(iteration);
    const durationMs = performance.now() - started;
    const up = error === '' ? 1 : 0;
    const report: [string, number][] = [
      ['up', up],
      ['scrape_duration_seconds', durationMs / 1000],
      ['scrape_samples_scraped', read?.scraped ?? 0],
      ['scrape_samples_post_metric_relabeling', up ? (read?.written ?? 0) : 0],
      ['scrape_series_added', up ? (read?.added ?? 0) : 0],
    ];
    for (const [name, value] of report)
      appender.add(this.targetLabels.with('__name__', name), slot, value);
    const { written } = appender.commit();
    if (up && read?.exemplars !== undefined) this.appendExemplars(read.exemplars);
    this.lastSlot = slot;
    this.completed = iteration;
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
   * Reads the scrape's samples into `appender` one by one as the parser yields them (a sample's
   * parsed labels and text are garbage once it is read, rather than held with the whole body's
   * until the last is read), stamping the series written and tracked; throws the parser's error,
   * the appender then holding part of the scrape.
   */
  private read(
    samples: Iterable<ScrapedSample>,
    appender: ScrapeAppender,
    slot: number,
    iteration: number,
  ): ReadCounts {
    let exemplars: [Labels, ScrapedExemplar, number][] | undefined;
    let scraped = 0;
    let written = 0;
    let added = 0;
    const { honorTimestamps, trackTimestampsStaleness } = this.config;
    for (const sample of samples) {
      scraped++;
      const cached = this.cache.get(sample.series, iteration);
      const series =
        cached !== undefined
          ? cached
          : this.cache.add(sample.series, iteration, this.labelsOf(sample));
      if (series === null || series.writtenIn === iteration) continue;
      series.writtenIn = iteration;
      written++;
      if (cached === undefined) added++;
      const own = honorTimestamps ? sample.timestampMs : undefined;
      if (own === undefined || trackTimestampsStaleness) this.cache.track(series, iteration);
      appender.add(series.labels, own ?? slot, sample.value);
      if (sample.exemplar !== undefined)
        (exemplars ??= []).push([series.labels, sample.exemplar, own ?? slot]);
    }
    return { scraped, written, added, exemplars };
  }

  /** A new series' labels as stored (null: dropped by relabeling). */
  private labelsOf(sample: ScrapedSample): Labels | null {
    const relabeled = this.deps.metricRelabel(
      withTargetLabels(sample.labels, this.targetLabels, this.config.honorLabels),
    );
    return relabeled === undefined ? null : this.deps.storage.kept(relabeled);
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
