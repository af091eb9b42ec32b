import type { Labels } from '../../tsdb/labels';
import type { Series } from './values';

/**
 * One series' points at an evaluator's steps, built step by step. Points at consecutive steps
 * (the usual case, often from the first step to the last) take their timestamps from the steps
 * in one piece at the end, the whole steps array itself shared when every step has a point:
 * nothing changes a series' points once it is built, so the sharing is safe. Arrays are sized
 * for every step at once and cut to length at the end, so none grows as it fills.
 */
export class StepPoints {
  /** Timestamps written out, once a gap follows the first point. */
  private t: number[] | undefined;
  private readonly f: number[];
  private n = 0;
  /** The step of the first point. */
  private first = 0;

  constructor(private readonly timestamps: readonly number[]) {
    this.f = new Array<number>(timestamps.length);
  }

  /** The value at step index `step`; steps ascend from call to call. */
  push(step: number, value: number): void {
    if (this.n === 0) {
      this.first = step;
    } else if (this.t === undefined && step !== this.first + this.n) {
      const t = new Array<number>(this.timestamps.length - this.first);
      for (let i = 0; i < this.n; i++) t[i] = this.timestamps[this.first + i];
      this.t = t;
    }
    if (this.t !== undefined) this.t[this.n] = this.timestamps[step];
    this.f[this.n++] = value;
  }

  /** The series built, or undefined when it has no point. */
  series(metric: Labels, dropName: boolean): Series | undefined {
    const { n, first, timestamps } = this;
    if (n === 0) return undefined;
    this.f.length = n;
    let t = this.t;
    if (t !== undefined) t.length = n;
    else t = stepRun(timestamps, first, n);
    return { metric, t, f: this.f, dropName };
  }
}

/** Runs of consecutive steps already cut from a query's steps, by first step and length. */
const runsOfSteps = new WeakMap<readonly number[], Map<number, number[]>>();

/**
 * The timestamps of `n` consecutive steps from step `first`: the steps array itself for all of
 * them, else one array per run shared by every series with that run (series of one selector or
 * function mostly start and end at the same steps).
 */
function stepRun(timestamps: readonly number[], first: number, n: number): number[] {
  if (first === 0 && n === timestamps.length) return timestamps as number[];
  let runs = runsOfSteps.get(timestamps);
  if (runs === undefined) {
    runs = new Map();
    runsOfSteps.set(timestamps, runs);
  }
  const key = first * (timestamps.length + 1) + n;
  let run = runs.get(key);
  if (run === undefined) {
    run = timestamps.slice(first, first + n);
    runs.set(key, run);
  }
  return run;
}
