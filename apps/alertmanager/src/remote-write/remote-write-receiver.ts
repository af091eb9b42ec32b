import type { Logger } from '../logging/logger';
import { Labels } from '../tsdb/labels';
import { isStaleNaN } from './staleness';
import { decodeWriteRequest, timestampMs, WriteRequestDecodeError } from './write-request-codec';

/** What the receiver appends through: the metric store's appender. */
export interface ReceiverAppender {
  add(labels: Labels, t: number, v: number): unknown;
  addStale(labels: Labels, t: number): unknown;
  commit(): {
    readonly appended: number;
    readonly rejected: ReadonlyMap<string, number>;
    /** Resolves once the committed samples are written to the log; rejects when they cannot be. */
    readonly written: Promise<void>;
  };
}

/** Where received samples go. */
export interface ReceiverStorage {
  appender(): ReceiverAppender;
}

/** The answer to one write request: a status and, for an error, its plain-text message. */
export interface ReceiverReply {
  readonly status: number;
  readonly message?: string;
}

/**
 * Prometheus's remote-write receiver (`POST /api/v1/write`, Remote Write 1.0): decodes the
 * snappy-compressed `WriteRequest` and appends its float samples, a staleness marker as one.
 * A body that does not decode, or a series without labels or with a label twice, is answered
 * 400 with nothing appended. Samples the store refuses (older than the series' newest, or a
 * different value at its newest time) are skipped and counted in the log, and the request is
 * answered 400 with the reason (`out of order sample`), so the sender does not retry it; the
 * others stay appended (upstream rolls the whole request back, which this store cannot).
 * Native histograms are refused; exemplars are ignored, as the store keeps none.
 *
 * The answer waits until the samples' record is written to the store's log, as Prometheus answers
 * once its write-ahead log has the record, so a process killed right after a `204` loses none of
 * them. Requests arriving during a write share the next one. A write that fails is answered 500,
 * which the sender retries; the samples it repeats are taken as already there.
 */
export class RemoteWriteReceiver {
  constructor(
    private readonly storage: ReceiverStorage,
    private readonly logger: Logger,
  ) {}

  /** Appends the samples of one write request; resolves with the answer once they are written. */
  async write(body: Uint8Array): Promise<ReceiverReply> {
    let request;
    try {
      request = decodeWriteRequest(body);
    } catch (error) {
      if (!(error instanceof WriteRequestDecodeError)) throw error;
      this.logger.error('Error decoding remote write request', { err: error.message });
      return { status: 400, message: error.message };
    }
    const app = this.storage.appender();
    for (const series of request.timeseries) {
      const names = new Set<string>();
      for (const { name } of series.labels) {
        if (names.has(name)) {
          return invalid(`label name ${JSON.stringify(name)} is not unique`);
        }
        names.add(name);
      }
      const labels = Labels.from(series.labels.map((l) => [l.name, l.value] as const));
      if (labels.size === 0) return invalid('empty labelset');
      if ((series.histograms?.length ?? 0) > 0) {
        return { status: 400, message: 'native histograms are not supported' };
      }
      for (const sample of series.samples) {
        const t = timestampMs(sample.timestamp);
        if (isStaleNaN(sample.value)) app.addStale(labels, t);
        else app.add(labels, t, sample.value);
      }
    }
    const { rejected, written } = app.commit();
    try {
      await written;
    } catch (error) {
      this.logger.error('Error appending remote write', { err: (error as Error).message });
      return { status: 500, message: (error as Error).message };
    }
    if (rejected.size === 0) return { status: 204 };
    for (const [reason, count] of rejected) {
      this.logger.error('Out of order sample from remote write', { err: reason, count });
    }
    return { status: 400, message: [...rejected.keys()][0] };
  }
}

/** Upstream's wording for a series the store cannot hold. */
function invalid(reason: string): ReceiverReply {
  return { status: 400, message: `invalid sample: ${reason}` };
}
