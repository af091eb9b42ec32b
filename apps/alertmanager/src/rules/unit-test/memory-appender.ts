import type { Labels } from '../../tsdb/labels';
import { SampleRejectedError } from '../../tsdb/memory-series';
import type { MemoryStore } from '../../tsdb/memory-store';
import type { SampleAppender } from '../group-evaluator';

/** Appends rule output straight into an in-memory store (rule tests keep nothing on disk). */
export class MemoryAppender implements SampleAppender {
  private readonly rejected = new Map<string, number>();

  constructor(private readonly store: MemoryStore) {}

  add(labels: Labels, t: number, v: number): this {
    this.append(labels, t, v, false);
    return this;
  }

  addStale(labels: Labels, t: number): this {
    this.append(labels, t, NaN, true);
    return this;
  }

  commit(): { rejected: ReadonlyMap<string, number> } {
    return { rejected: this.rejected };
  }

  private append(labels: Labels, t: number, v: number, stale: boolean): void {
    try {
      this.store.append(labels, t, v, stale);
    } catch (error) {
      if (!(error instanceof SampleRejectedError)) throw error;
      this.rejected.set(error.message, (this.rejected.get(error.message) ?? 0) + 1);
    }
  }
}
