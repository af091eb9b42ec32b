import type { RemoteWriteQueueConfig } from '../config';
import type { Logger } from '../logging/logger';
import type { Clock } from '../time/clock';
import { sleeperFor, type Scheduler, type TimerHandle } from '../time/scheduler';
import type { Labels } from '../tsdb/labels';
import type { AppendedBatch } from '../tsdb/metric-storage';
import type { StoreOutcome } from './remote-write-client';
import type { RemoteLabels, RemoteWriteMetrics } from './remote-write-metrics';
import { SampleRing } from './sample-ring';
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

/** What a queue works with. */
export interface RemoteWriteQueueDeps {
  readonly store: RemoteStore;
  readonly metrics: RemoteWriteMetrics;
  readonly clock: Clock;
  readonly scheduler: Scheduler;
  readonly logger: Logger;
}

/**
 * The samples bound for one remote and the loop that sends them, as one of Prometheus's queue
 * managers with a single shard: samples wait in a bounded ring (`capacity` × `max_shards`, the
 * most upstream holds in memory for a remote); a batch leaves when it has `max_samples_per_send`
 * samples or its oldest sample has waited `batch_send_deadline`. A batch stays queued until the
 * remote took it: recoverable failures (5xx, network, 429 when allowed) are retried for ever
 * with a backoff doubling from `min_backoff` to `max_backoff`, so the samples behind it wait and
 * are caught up when the remote is back; other failures drop the batch. When the ring is full,
 * new samples are dropped and counted. Upstream reads its write-ahead log instead and loses
 * nothing; this ring lives in memory and is lost on restart.
 */
export class RemoteWriteQueue {
  private readonly ring: SampleRing;
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

  constructor(
    private readonly options: RemoteWriteQueueOptions,
    private readonly deps: RemoteWriteQueueDeps,
  ) {
    const { queue } = options;
    this.store = deps.store;
    this.ring = new SampleRing(queue.capacity * queue.maxShards);
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
    void this.run();
  }

  /** Queues a committed batch's samples; never blocks (a full ring drops and counts). */
  append(batch: AppendedBatch): void {
    if (this.stopping.signal.aborted) return;
    let dropped = 0;
    for (let i = 0; i < batch.labels.length; i++) {
      const labels = this.seriesLabels(batch.labels[i]);
      if (labels === undefined || !this.ring.push(labels, batch.t[i], batch.v[i], batch.stale[i])) {
        dropped++;
      }
    }
    if (dropped > 0) this.deps.metrics.samplesDropped.inc(this.labels, dropped);
    this.deps.metrics.samplesPending.set(this.labels, this.ring.length);
    if (this.ring.length >= this.wakeAt) this.wake?.();
  }

  /** Sends through `store` from now on (after the request in flight); the old one is closed. */
  setStore(store: RemoteStore): void {
    if (this.stopping.signal.aborted) return store.close();
    this.nextStore?.close();
    this.nextStore = store;
    if (!this.sending) this.switchStore();
  }

  /** Stops sending at once; what is queued is given up. */
  stop(): void {
    if (this.stopping.signal.aborted) return;
    this.stopping.abort();
    this.wake?.();
    this.store.close();
    this.nextStore?.close();
    this.deps.metrics.remove(this.labels);
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
    metrics.samplesPending.set(this.labels, this.ring.length);
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
