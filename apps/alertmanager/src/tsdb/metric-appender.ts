import type { Labels } from './labels';
import type { AppendResult, MetricStorage } from './metric-storage';

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
