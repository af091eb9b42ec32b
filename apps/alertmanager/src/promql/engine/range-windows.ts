import type { Labels } from '../../tsdb/labels';
import { CounterResets } from './counter-resets';
import { SLIDING_EXTREMES, type RangeFunction } from './range-functions';
import { SlidingExtreme } from './sliding-extreme';
import { StepPoints } from './step-points';
import { firstAfter } from './time-search';
import type { Series } from './values';

/** One call of a range function (`rate(x[5m])`, `max_over_time(q[1h:1m])`) over the steps. */
export interface RangeWindows {
  readonly fn: RangeFunction;
  readonly timestamps: readonly number[];
  /** The scalar arguments' values, per argument and step. */
  readonly stepScalars: readonly number[][];
  /** The scalar arguments at the step being computed: one array for every window. */
  readonly args: number[];
  /** How far an anchored or smoothed window reaches before its range, and after it. */
  readonly before: number;
  readonly after: number;
  readonly anchored: boolean;
  readonly smoothed: boolean;
  /** Whether the function drops the metric name. */
  readonly dropName: boolean;
}

/**
 * The function's value at each step from one series' points (oldest first), or undefined when it
 * has none. Each window is `(ref - range, ref]`, widened for anchored and smoothed ranges: a
 * span of indices into the points, no copies.
 */
export function windowedSeries(
  call: RangeWindows,
  metric: Labels,
  inputDropName: boolean,
  t: Float64Array,
  f: Float64Array,
  /** The time each step reads at (`@`, `offset`). */
  refs: Float64Array,
  rangeMs: number,
): Series | undefined {
  const { fn, timestamps, stepScalars, args, before, after, anchored, smoothed } = call;
  const points = new StepPoints(timestamps);
  // One window, moved from step to step: a step allocates nothing.
  const window = {
    t,
    f,
    from: 0,
    to: 0,
    ts: 0,
    rangeStart: 0,
    rangeEnd: 0,
    rangeMs,
    args,
    anchored,
    smoothed,
    resets: new CounterResets(),
  };
  // Over many steps, the extremes slide along the series rather than scan each window.
  const isMax = timestamps.length > 1 ? SLIDING_EXTREMES.get(fn) : undefined;
  const slider = isMax === undefined ? undefined : new SlidingExtreme(f, isMax);
  let lastFrom = 0;
  let lastTo = 0;
  let from = 0;
  let to = 0;
  for (let step = 0; step < timestamps.length; step++) {
    const ts = timestamps[step];
    const ref = refs[step];
    const startAt = ref - rangeMs - before;
    const endAt = ref + after;
    // Windows move forward with the steps (or stay, under `@`): the edges slide, no search.
    if (from > 0 && t[from - 1] > startAt) from = firstAfter(t, startAt);
    while (from < t.length && t[from] <= startAt) from++;
    if (to < from || (to > 0 && t[to - 1] > endAt)) to = firstAfter(t, endAt, from);
    while (to < t.length && t[to] <= endAt) to++;
    if (to === from) continue;
    if (slider !== undefined && from >= lastFrom && to >= lastTo) {
      lastFrom = from;
      lastTo = to;
      points.push(step, slider.value(from, to));
      continue;
    }
    for (let k = 0; k < stepScalars.length; k++) args[k] = stepScalars[k][step];
    window.from = from;
    window.to = to;
    window.ts = ts;
    window.rangeStart = ref - rangeMs;
    window.rangeEnd = ref;
    const value = fn(window);
    if (value === undefined) continue;
    points.push(step, value);
  }
  return points.series(metric, call.dropName || inputDropName);
}
