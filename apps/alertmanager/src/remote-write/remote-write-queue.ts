import type { RemoteWriteQueueConfig } from '../config';
import type { Logger } from '../logging/logger';
import type { Clock } from '../time/clock';
import { sleeperFor, type Scheduler, type TimerHandle } from '../time/scheduler';
import type { Labels } from '../tsdb/labels';
import type { LogPosition, LogRead } from '../tsdb/metric-storage';
import type { StoreOutcome } from './remote-write-client';
import type { RemoteLabels, RemoteWriteMetrics } from './remote-write-metrics';
import { SampleRing } from './sample-ring';
import { SentRecords } from './sent-records';
import { STALE_NAN } from './staleness';
import {
  encodeWriteRequest,
  type WireLabel,
  type WireSample,
  type WireTimeSeries,
} from './write-request-codec';

/** What a queue sends through: one remote's client. */
export interface RemoteStore {
  store(body: Uint8Array, signal: AbortSignal): Promise<StoreOutcome>;
  close(): void;
}

/** One remote as the queue sees it. */
export interface RemoteWriteQueueOptions {
  /** `name`, or the entry's hash when it has none: the `remote_name` label. */
  readonly name: string;
  /** The URL without credentials: the `url` label. */
  readonly url: string;
  readonly queue: RemoteWriteQueueConfig;
  /** A series' labels as sent (external labels added, `write_relabel_configs` applied), or undefined to drop it. */
  readonly seriesLabels: (labels: Labels) => Labels | undefined;
}

/** The metric store's log as one remote reads it (see `MetricLogReader`). */
export interface LogFeed {
  read(maxSamples: number): Promise<LogRead>;
  /** The segment being read. */
  readonly currentSegment: number;
  /** The position after the last record read (the next segment's start once one is over). */
  readonly position: LogPosition;
  /** Records read, by type, and those that did not decode. */
  readonly counts: { readonly series: number; readonly samples: number; readonly failures: number };
  close(): Promise<void>;
}

/** Where a remote's position in the log is kept between starts. */
export interface PositionKeeper {
  /** Where the feed starts: the position kept, or the log's end for a new remote. */
  readonly start: LogPosition;
  save(position: LogPosition): void;
}

/** What a queue works with. */
export interface RemoteWriteQueueDeps {
  readonly feed: LogFeed;
  readonly position: PositionKeeper;
  readonly store: RemoteStore;
  readonly metrics: RemoteWriteMetrics;
  readonly clock: Clock;
  readonly scheduler: Scheduler;
  readonly logger: Logger;
}

/** Samples read from the log at a time while the queue has room. */
const READ_SAMPLES = 10_000;
/** The position is kept at most this often while samples are sent. */
const SAVE_POSITION_MS = 1000;
/** A failed read of the log is tried again after this long, if nothing is written before. */
const READ_RETRY_MS = 1000;

/**
 * The samples bound for one remote and the loop that sends them, as one of Prometheus's queue
 * managers with a single shard fed by its write-ahead-log watcher: samples wait in the metric
 * store's log, and are read from it into a ring while the ring holds fewer than `capacity` ×
 * `max_shards` (so memory does not grow with an outage); a batch leaves when it has
 * `max_samples_per_send` samples or its oldest sample has waited `batch_send_deadline`. A batch
 * stays queued until the remote took it: recoverable failures (5xx, network, 429 when allowed)
 * are retried for ever with a backoff doubling from `min_backoff` to `max_backoff`, so the
 * samples behind it wait and are caught up when the remote is back; other failures drop the
 * batch. The position after the last record whose samples have left is kept (see
 * {@link PositionKeeper}), so a restart resumes there, where upstream starts from the log's end.
 */
export class RemoteWriteQueue {
  private readonly ring: SampleRing;
  private readonly sent: SentRecords;
  private readonly labelCache = new WeakMap<Labels, Labels | null>();
  private readonly wireCache = new WeakMap<Labels, WireLabel[]>();
  private readonly stopping = new AbortController();
  private readonly sleep: ReturnType<typeof sleeperFor>;
  private readonly labels: Record<RemoteLabels, string>;
  /** Wakes the send loop once the ring holds `wakeAt` samples. */
  private wakeAt = Infinity;
  private wake: (() => void) | undefined;
  private highestSent = 0;
  private store: RemoteStore;
  /** A client to switch to once the request in flight, if any, has ended. */
  private nextStore: RemoteStore | undefined;
  private sending = false;
  private filling = false;
  private fillAgain = false;
  private readRetry: TimerHandle | undefined;
  private saved: LogPosition;
  private savedAt = -Infinity;
  private saveTimer: TimerHandle | undefined;
  private readCounts = { series: 0, samples: 0, failures: 0 };

  constructor(
    private readonly options: RemoteWriteQueueOptions,
    private readonly deps: RemoteWriteQueueDeps,
  ) {
    const { queue } = options;
    this.store = deps.store;
    this.ring = new SampleRing(queue.capacity * queue.maxShards);
    this.sent = new SentRecords(deps.position.start);
    this.saved = deps.position.start;
    this.sleep = sleeperFor(deps.scheduler);
    this.labels = { remote_name: options.name, url: options.url };
    const m = deps.metrics;
    for (const counter of [
      m.samplesTotal,
      m.samplesFailed,
      m.samplesRetried,
      m.samplesDropped,
      m.bytesTotal,
    ]) {
      counter.inc(this.labels, 0);
    }
    m.samplesPending.set(this.labels, 0);
    m.highestSentTimestamp.set(this.labels, 0);
    m.shards.set(this.labels, 1);
    m.shardCapacity.set(this.labels, this.ring.capacity);
    m.maxSamplesPerSend.set(this.labels, queue.maxSamplesPerSend);
    m.watcherSegment.set({ consumer: options.name }, deps.feed.currentSegment);
    void this.run();
    this.logWritten();
  }

  /** The log has more: reads it on while the ring has room. */
  logWritten(): void {
    void this.fill();
  }

  /** The oldest log segment this remote still has to read from (its kept position's). */
  get neededSegment(): number {
    return this.sent.position.segment;
  }

  /** Sends through `store` from now on (after the request in flight); the old one is closed. */
  setStore(store: RemoteStore): void {
    if (this.stopping.signal.aborted) return store.close();
    this.nextStore?.close();
    this.nextStore = store;
    if (!this.sending) this.switchStore();
  }

  /** Stops sending at once; what is queued waits in the log, from the position kept now. */
  stop(): void {
    if (this.stopping.signal.aborted) return;
    this.stopping.abort();
    this.wake?.();
    if (this.saveTimer) this.deps.scheduler.clear(this.saveTimer);
    if (this.readRetry) this.deps.scheduler.clear(this.readRetry);
    this.savePosition();
    void this.deps.feed.close();
    this.store.close();
    this.nextStore?.close();
    this.deps.metrics.remove(this.labels);
    this.deps.metrics.removeWatcher(this.options.name);
  }

  /** Reads the log into the ring while it has room; one read at a time. */
  private async fill(): Promise<void> {
    const { signal } = this.stopping;
    if (this.filling) {
      this.fillAgain = true;
      return;
    }
    this.filling = true;
    try {
      do {
        this.fillAgain = false;
        while (!signal.aborted && this.ring.length < this.ring.capacity) {
          const room = this.ring.capacity - this.ring.length;
          const read = await this.deps.feed.read(Math.min(room, READ_SAMPLES));
          if (signal.aborted) return;
          this.take(read);
          if (read.records.length === 0) break;
        }
      } while (this.fillAgain && !signal.aborted);
    } catch (error) {
      this.deps.logger.error('Reading the metric log failed; trying again', {
        err: (error as Error).message,
      });
      this.readRetry ??= this.deps.scheduler.set(this.deps.clock.now() + READ_RETRY_MS, () => {
        this.readRetry = undefined;
        this.logWritten();
      });
    } finally {
      this.filling = false;
    }
  }

  /** Queues the samples of a read (relabeled; dropped ones counted) and where its records end. */
  private take(read: LogRead): void {
    const { metrics } = this.deps;
    let dropped = read.unknownSeries;
    let record = 0;
    for (let i = 0; i < read.t.length; i++) {
      while (record < read.records.length && read.records[record].samples <= i) {
        this.sent.recordEnds(read.records[record++].position);
      }
      const labels = this.seriesLabels(read.labels[i]);
      if (labels === undefined) {
        dropped++;
        continue;
      }
      this.ring.push(labels, read.t[i], read.v[i], read.stale[i]);
      this.sent.queuedSamples(1);
    }
    while (record < read.records.length) this.sent.recordEnds(read.records[record++].position);
    // Past the last record read: into the next segment, or past records without samples.
    this.sent.recordEnds(this.deps.feed.position);
    if (dropped > 0) metrics.samplesDropped.inc(this.labels, dropped);
    metrics.samplesPending.set(this.labels, this.ring.length);
    this.countReads();
    this.positionMoved();
    if (this.ring.length >= this.wakeAt) this.wake?.();
  }

  private countReads(): void {
    const { metrics } = this.deps;
    const { counts, currentSegment } = this.deps.feed;
    const consumer = this.options.name;
    metrics.watcherSegment.set({ consumer }, currentSegment);
    for (const type of ['series', 'samples'] as const) {
      const delta = counts[type] - this.readCounts[type];
      if (delta > 0) metrics.watcherRecordsRead.inc({ consumer, type }, delta);
    }
    const failures = counts.failures - this.readCounts.failures;
    if (failures > 0) metrics.watcherDecodeFailures.inc({ consumer }, failures);
    this.readCounts = { ...counts };
  }

  /** Keeps the position once it moved, at most every `SAVE_POSITION_MS`. */
  private positionMoved(): void {
    const { position } = this.sent;
    if (position.segment === this.saved.segment && position.offset === this.saved.offset) return;
    const due = this.savedAt + SAVE_POSITION_MS;
    if (this.deps.clock.now() >= due) return this.savePosition();
    this.saveTimer ??= this.deps.scheduler.set(due, () => {
      this.saveTimer = undefined;
      this.savePosition();
    });
  }

  private savePosition(): void {
    const { position } = this.sent;
    this.savedAt = this.deps.clock.now();
    if (position.segment === this.saved.segment && position.offset === this.saved.offset) return;
    try {
      this.deps.position.save(position);
      this.saved = position;
    } catch (error) {
      this.deps.logger.error('Keeping the remote write position failed', {
        err: (error as Error).message,
      });
    }
  }

  private seriesLabels(series: Labels): Labels | undefined {
    let labels = this.labelCache.get(series);
    if (labels === undefined) {
      const sent = this.options.seriesLabels(series);
      labels = sent === undefined || sent.size === 0 ? null : sent;
      this.labelCache.set(series, labels);
    }
    return labels ?? undefined;
  }

  private async run(): Promise<void> {
    const { signal } = this.stopping;
    const { maxSamplesPerSend, batchSendDeadlineMs } = this.options.queue;
    while (!signal.aborted) {
      if (this.ring.length === 0) await this.waitFor(1, Infinity);
      if (this.ring.length < maxSamplesPerSend && !signal.aborted) {
        await this.waitFor(maxSamplesPerSend, this.deps.clock.now() + batchSendDeadlineMs);
      }
      if (signal.aborted) return;
      const count = Math.min(this.ring.length, maxSamplesPerSend);
      if (count > 0) await this.sendBatch(count);
    }
  }

  /** Resolves when the ring holds `count` samples, at `until`, or when the queue stops. */
  private waitFor(count: number, until: number): Promise<void> {
    return new Promise((resolve) => {
      let timer: TimerHandle | undefined;
      this.wakeAt = count;
      this.wake = () => {
        if (timer) this.deps.scheduler.clear(timer);
        this.wake = undefined;
        this.wakeAt = Infinity;
        resolve();
      };
      if (Number.isFinite(until)) timer = this.deps.scheduler.set(until, this.wake);
      if (this.ring.length >= count || this.stopping.signal.aborted) this.wake();
    });
  }

  /** Sends the `count` oldest samples until the remote takes them or refuses them for good. */
  private async sendBatch(count: number): Promise<void> {
    const { signal } = this.stopping;
    const { metrics, clock, logger } = this.deps;
    const { body, highest } = this.encode(count);
    const { minBackoffMs, maxBackoffMs } = this.options.queue;
    let backoff = minBackoffMs;
    for (;;) {
      metrics.samplesTotal.inc(this.labels, count);
      const begin = clock.now();
      this.sending = true;
      const outcome = await this.store.store(body, signal).finally(() => {
        this.sending = false;
      });
      if (signal.aborted) return;
      this.switchStore();
      metrics.sentBatchDuration.observe(this.labels, (clock.now() - begin) / 1000);
      if (outcome.ok) break;
      if (!outcome.recoverable) {
        logger.error('non-recoverable error', { count, err: outcome.error });
        metrics.samplesFailed.inc(this.labels, count);
        break;
      }
      const wait = outcome.retryAfterMs ?? backoff;
      await this.sleep(clock.now() + wait, signal);
      if (signal.aborted) return;
      metrics.samplesRetried.inc(this.labels, count);
      logger.warn('Failed to send batch, retrying', { err: outcome.error });
      backoff = Math.min(wait * 2, maxBackoffMs);
    }
    // As upstream, also after a batch given up on: it left the queue.
    metrics.bytesTotal.inc(this.labels, body.length);
    if (highest > this.highestSent) {
      this.highestSent = highest;
      metrics.highestSentTimestamp.set(this.labels, Math.floor(highest / 1000));
    }
    this.ring.shift(count);
    this.sent.leftQueue(count);
    metrics.samplesPending.set(this.labels, this.ring.length);
    this.positionMoved();
    this.logWritten();
  }

  private switchStore(): void {
    if (this.nextStore === undefined) return;
    this.store.close();
    this.store = this.nextStore;
    this.nextStore = undefined;
  }

  /** The request for the `count` oldest samples, a series' samples together in time order. */
  private encode(count: number): { body: Uint8Array; highest: number } {
    const bySeries = new Map<Labels, WireSample[]>();
    const timeseries: WireTimeSeries[] = [];
    let highest = 0;
    for (let i = 0; i < count; i++) {
      const labels = this.ring.labelsAt(i);
      let samples = bySeries.get(labels);
      if (samples === undefined) {
        samples = [];
        bySeries.set(labels, samples);
        timeseries.push({ labels: this.wireLabels(labels), samples });
      }
      const timestamp = this.ring.timeAt(i);
      // The marker is written fresh into the sample object: its NaN bits must not pass through
      // a plain number array, where V8 would make it an ordinary NaN.
      samples.push({
        value: this.ring.isStaleAt(i) ? STALE_NAN : this.ring.valueAt(i),
        timestamp,
      });
      if (timestamp > highest) highest = timestamp;
    }
    return { body: encodeWriteRequest({ timeseries }), highest };
  }

  private wireLabels(labels: Labels): WireLabel[] {
    let wire = this.wireCache.get(labels);
    if (wire === undefined) {
      wire = labels.names.map((name, i) => ({ name, value: labels.values[i] }));
      this.wireCache.set(labels, wire);
    }
    return wire;
  }
}
