import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/** The labels every queue's metrics carry: the remote's name and its URL. */
export type RemoteLabels = 'remote_name' | 'url';

/** Upstream's buckets for send durations: the client defaults and a few long ones. */
const SEND_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 25, 60, 120, 300];

/** Remote write's metrics under Prometheus's names, help texts and labels. */
export class RemoteWriteMetrics {
  /** Every sample appended to the store while a remote is configured. */
  readonly samplesIn: Counter;
  /** The newest timestamp appended, in seconds. */
  readonly highestTimestampIn: Gauge;
  readonly samplesTotal: Counter<RemoteLabels>;
  readonly samplesFailed: Counter<RemoteLabels>;
  readonly samplesRetried: Counter<RemoteLabels>;
  readonly samplesDropped: Counter<RemoteLabels>;
  readonly samplesPending: Gauge<RemoteLabels>;
  readonly bytesTotal: Counter<RemoteLabels>;
  readonly sentBatchDuration: Histogram<RemoteLabels>;
  readonly highestSentTimestamp: Gauge<RemoteLabels>;
  readonly shards: Gauge<RemoteLabels>;
  readonly shardCapacity: Gauge<RemoteLabels>;
  readonly maxSamplesPerSend: Gauge<RemoteLabels>;
  /** The log segment each remote's reader is in (`consumer`: the remote's name). */
  readonly watcherSegment: Gauge<'consumer'>;
  readonly watcherRecordsRead: Counter<'consumer' | 'type'>;
  readonly watcherDecodeFailures: Counter<'consumer'>;

  constructor(registry: Registry) {
    const registers = [registry];
    const labelNames: RemoteLabels[] = ['remote_name', 'url'];
    const counter = (name: string, help: string) =>
      new Counter({ name: `prometheus_remote_storage_${name}`, help, labelNames, registers });
    const gauge = (name: string, help: string) =>
      new Gauge({ name: `prometheus_remote_storage_${name}`, help, labelNames, registers });
    this.samplesIn = new Counter({
      name: 'prometheus_remote_storage_samples_in_total',
      help: 'Samples in to remote storage, compare to samples out for queue managers.',
      registers,
    });
    this.highestTimestampIn = new Gauge({
      name: 'prometheus_remote_storage_highest_timestamp_in_seconds',
      help: 'Highest timestamp that has come into the remote storage via the Appender interface, in seconds since epoch.',
      registers,
    });
    this.samplesTotal = counter('samples_total', 'Total number of samples sent to remote storage.');
    this.samplesFailed = counter(
      'samples_failed_total',
      'Total number of samples which failed on send to remote storage, non-recoverable errors.',
    );
    this.samplesRetried = counter(
      'samples_retried_total',
      'Total number of samples which failed on send to remote storage but were retried because the send error was recoverable.',
    );
    this.samplesDropped = counter(
      'samples_dropped_total',
      'Total number of samples which were dropped after being read from the WAL before being sent via remote write, either via relabelling or unintentionally because of an unknown reference ID.',
    );
    this.samplesPending = gauge(
      'samples_pending',
      'The number of samples pending in the queues shards to be sent to the remote storage.',
    );
    this.bytesTotal = counter(
      'bytes_total',
      'The total number of bytes of data (not metadata) sent by the queue after compression. Note that when exemplars over remote write is enabled the exemplars included in a remote write request count towards this metric.',
    );
    this.sentBatchDuration = new Histogram({
      name: 'prometheus_remote_storage_sent_batch_duration_seconds',
      help: 'Duration of send calls to the remote storage.',
      labelNames,
      buckets: SEND_BUCKETS,
      registers,
    });
    this.highestSentTimestamp = gauge(
      'queue_highest_sent_timestamp_seconds',
      'Timestamp from a WAL sample, the highest timestamp successfully sent by this queue, in seconds since epoch.',
    );
    this.shards = gauge(
      'shards',
      'The number of shards used for parallel sending to the remote storage.',
    );
    this.shardCapacity = gauge(
      'shard_capacity',
      'The capacity of each shard of the queue used for parallel sending to the remote storage.',
    );
    this.maxSamplesPerSend = gauge(
      'max_samples_per_send',
      'The maximum number of samples to be sent, in a single request, to the remote storage. Note that, when sending of exemplars over remote write is enabled, exemplars count towards this limt.',
    );
    this.watcherSegment = new Gauge({
      name: 'prometheus_wal_watcher_current_segment',
      help: 'Current segment the WAL watcher is reading records from.',
      labelNames: ['consumer'],
      registers,
    });
    this.watcherRecordsRead = new Counter({
      name: 'prometheus_wal_watcher_records_read_total',
      help: 'Number of records read by the WAL watcher from the WAL.',
      labelNames: ['consumer', 'type'],
      registers,
    });
    this.watcherDecodeFailures = new Counter({
      name: 'prometheus_wal_watcher_record_decode_failures_total',
      help: 'Number of records read by the WAL watcher that resulted in an error when decoding.',
      labelNames: ['consumer'],
      registers,
    });
  }

  /** Forgets the series of one remote's log reader. */
  removeWatcher(consumer: string): void {
    this.watcherSegment.remove({ consumer });
    this.watcherDecodeFailures.remove({ consumer });
    for (const type of ['series', 'samples']) this.watcherRecordsRead.remove({ consumer, type });
  }

  /** Forgets one remote's series, when its queue stops (as upstream unregisters them). */
  remove(labels: Record<RemoteLabels, string>): void {
    for (const metric of [
      this.samplesTotal,
      this.samplesFailed,
      this.samplesRetried,
      this.samplesDropped,
      this.samplesPending,
      this.bytesTotal,
      this.sentBatchDuration,
      this.highestSentTimestamp,
      this.shards,
      this.shardCapacity,
      this.maxSamplesPerSend,
    ]) {
      metric.remove(labels);
    }
  }
}
