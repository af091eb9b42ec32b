import type { Labels } from './labels';
import type { MetricStorage } from './metric-storage';

/** What one commit of an appender did. */
export interface AppendResult {
  readonly appended: number;
  /** Samples refused (older than the series' newest, or another value at its time), by reason. */
  readonly rejected: ReadonlyMap<string, number>;
  /**
   * Resolves once the batch's records (and every record appended before them) are written to the
   * log, so a killed process cannot lose them (the disk's sync follows within `syncIntervalMs`);
   * rejects when the log cannot be written (the records stay queued for the next write). Commits
   * arriving while a write is under way share the next one.
   */
  readonly written: Promise<void>;
}

/** Samples one commit appended (rejected ones left out), in the order they were added. */
export interface AppendedBatch {
  readonly labels: readonly Labels[];
  readonly t: readonly number[];
  readonly v: readonly number[];
  /** Staleness markers (their `v` is NaN). */
  readonly stale: readonly boolean[];
}

/** Told of every committed batch, after it is applied and logged (remote write); must not throw. */
export type AppendListener = (batch: AppendedBatch) => void;

/**
 * Samples of one scrape, rule evaluation or remote-write request, appended and logged together:
 * `commit` applies them at once and starts their write; its `written` says when it has completed.
 */
export class MetricAppender {
  private readonly labels: Labels[] = [];
  private readonly t: number[] = [];
  private readonly v: number[] = [];
  private readonly stale: boolean[] = [];

  constructor(private readonly storage: MetricStorage) {}

  add(labels: Labels, t: number, v: number): this {
    this.labels.push(labels);
    this.t.push(t);
    this.v.push(v);
    this.stale.push(false);
    return this;
  }

  /** A staleness marker: the series ended (its target or rule stopped producing it). */
  addStale(labels: Labels, t: number): this {
    this.labels.push(labels);
    this.t.push(t);
    this.v.push(NaN);
    this.stale.push(true);
    return this;
  }

  commit(): AppendResult {
    return this.storage.write(this.labels, this.t, this.v, this.stale);
  }
}
