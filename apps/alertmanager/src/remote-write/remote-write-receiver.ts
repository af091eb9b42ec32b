import type { Logger } from '../logging/logger';
import { Labels } from '../tsdb/labels';
import type { ReceivedSamples } from './received-samples';
import { WriteDecoder } from './write-decoder';

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
 * 400 with nothing appended. Large bodies decode on a thread of their own (`WriteDecoder`), and
 * the samples are appended a slice per turn of the event loop, so a request of megabytes never
 * holds the thread that takes alerts. Samples the store refuses (older than the series' newest, or a
 * different value at its newest time) are skipped and counted in the log, and the request is
 * answered 400 with the reason (`out of order sample`), so the sender does not retry it; the
 * others stay appended (upstream rolls the whole request back, which this store cannot).
 * Native histograms are refused; exemplars are ignored (the exemplar store takes the scraped
 * ones only).
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
    private readonly decoder: WriteDecoder = new WriteDecoder(),
  ) {}

  /** Appends the samples of one write request; resolves with the answer once they are on disk. */
  async write(body: Uint8Array): Promise<ReceiverReply> {
    let received;
    try {
      received = await this.decoder.decode(body);
    } catch (error) {
      this.logger.error('Error decoding remote write request', { err: (error as Error).message });
      return { status: 500, message: (error as Error).message };
    }
    if (received.kind === 'refused') {
      if (received.undecodable) {
        this.logger.error('Error decoding remote write request', { err: received.message });
      }
      return { status: received.status, message: received.message };
    }
    const rejected = new Map<string, number>();
    /** Each slice's write, settled to its error (or none) as soon as it ends. */
    const writes: Promise<Error | undefined>[] = [];
    const slices = new SampleSlices(received);
    for (;;) {
      const result = slices.appendNext(this.storage.appender());
      for (const [reason, count] of result.rejected)
        rejected.set(reason, (rejected.get(reason) ?? 0) + count);
      writes.push(result.written.then(noError, (error: Error) => error));
      if (slices.done) break;
      // Other work (alerts, probes) runs between slices of a large request.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    const failed = (await Promise.all(writes)).find((error) => error !== undefined);
    if (failed) {
      this.logger.error('Error appending remote write', { err: failed.message });
      return { status: 500, message: failed.message };
    }
    if (rejected.size === 0) return { status: 204 };
    for (const [reason, count] of rejected) {
      this.logger.error('Out of order sample from remote write', { err: reason, count });
    }
    return { status: 400, message: [...rejected.keys()][0] };
  }

  /** Ends the decoding thread, if one runs. */
  close(): Promise<void> {
    return this.decoder.close();
  }
}

/** Samples appended in one turn of the event loop at most. */
const SLICE_SAMPLES = 2_000;

const noError = (): undefined => undefined;

/** A request's samples appended a slice of about {@link SLICE_SAMPLES} at a time (a series whole). */
class SampleSlices {
  private series = 0;
  private label = 0;
  private sample = 0;

  constructor(private readonly received: ReceivedSamples) {}

  get done(): boolean {
    return this.series >= this.received.labelCounts.length;
  }

  /** Adds the next slice to `app` and commits it. */
  appendNext(app: ReceiverAppender): ReturnType<ReceiverAppender['commit']> {
    const { names, values, labelCounts, sampleCounts, t, v, stale } = this.received;
    for (let taken = 0; !this.done && taken < SLICE_SAMPLES; this.series++) {
      const end = this.label + labelCounts[this.series];
      const labels = Labels.ofSorted(names.slice(this.label, end), values.slice(this.label, end));
      this.label = end;
      for (let k = 0; k < sampleCounts[this.series]; k++, this.sample++) {
        if (stale[this.sample] === 1) app.addStale(labels, t[this.sample]);
        else app.add(labels, t[this.sample], v[this.sample]);
      }
      taken += sampleCounts[this.series];
    }
    return app.commit();
  }
}
