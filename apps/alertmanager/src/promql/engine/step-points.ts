import type { Labels } from '../../tsdb/labels';
import type { Series } from './values';

/**
 * One series' points at an evaluator's steps, built step by step. A series with a point at every
 * step (the usual case) shares the steps' own timestamps rather than a copy of them; nothing
 * changes a series' points once it is built, so the sharing is safe and halves what a query
 * allocates per series.
 */
export class StepPoints {
  private t: number[] | undefined;
  /** Sized for every step at once, so that it never grows; cut to length at the end. */
  private readonly f: number[];
  private n = 0;

  constructor(private readonly timestamps: readonly number[]) {
    this.f = new Array<number>(timestamps.length);
  }

  /** The value at step index `step`; steps ascend from call to call. */
  push(step: number, value: number): void {
    if (this.t === undefined && step !== this.n) this.t = this.timestamps.slice(0, this.n);
    this.t?.push(this.timestamps[step]);
    this.f[this.n++] = value;
  }

  get length(): number {
    return this.n;
  }

  /** The series built, or undefined when it has no point. */
  series(metric: Labels, dropName: boolean): Series | undefined {
    const n = this.n;
    if (n === 0) return undefined;
    this.f.length = n;
    let t = this.t;
    if (t === undefined) {
      t =
        n === this.timestamps.length ? (this.timestamps as number[]) : this.timestamps.slice(0, n);
    }
    return { metric, t, f: this.f, dropName };
  }
}
