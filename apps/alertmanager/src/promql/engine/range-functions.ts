import { PromqlEvalError } from './errors';
import { extrapolatedRate } from './rate-functions';
import type { CounterResets } from './counter-resets';
import { firstAfter } from './time-search';
import { compareValues, goF, kahanInc, quantile } from './float-math';

/**
 * A series' samples in one step's window, and what the function needs to know of it. The window
 * is `t[from..to)` and `f[from..to)` of the series' whole run: indices, not views, so a step
 * allocates nothing.
 */
export interface Window {
  readonly t: Float64Array;
  readonly f: Float64Array;
  readonly from: number;
  /** One past the window's last sample. */
  readonly to: number;
  /** The step's evaluation time (ms). */
  readonly ts: number;
  /** The window's bounds (ms): `(rangeStart, rangeEnd]`. */
  readonly rangeStart: number;
  readonly rangeEnd: number;
  readonly rangeMs: number;
  /** Scalar arguments other than the range vector, in order, at this step. */
  readonly args: readonly number[];
  /**
   * `anchored`: the window also holds the last sample at or before its start (within the
   * lookback); `smoothed`: also the first sample after its end, and edges are interpolated.
   */
  readonly anchored?: boolean;
  readonly smoothed?: boolean;
  /** Where the series' counter resets are, found as the windows move along it. */
  readonly resets?: CounterResets;
}

/** Functions that accept an `anchored` range, and a `smoothed` one, as upstream. */
export const ANCHORED_SAFE = ['changes', 'delta', 'increase', 'rate', 'resets'];
export const SMOOTHED_SAFE = ['delta', 'increase', 'rate'];

/** Where `changes` and `resets` start: with `anchored`, at the last sample at or before the range. */
function firstIndex(w: Window): number | undefined {
  if (!w.anchored) return w.from;
  const lastBefore = firstAfter(w.t, w.rangeStart, w.from, w.to) - 1;
  if (lastBefore + 1 >= w.to) return undefined;
  return lastBefore < w.from ? w.from : lastBefore;
}

/** A function over a range vector: the value for one series at one step, or none. */
export type RangeFunction = (w: Window) => number | undefined;

/** `irate` and `idelta`: from the last two samples. */
function instantValue(w: Window, isRate: boolean): number | undefined {
  const n = w.to;
  if (n - w.from < 2) return undefined;
  const interval = w.t[n - 1] - w.t[n - 2];
  if (interval === 0) return undefined;
  const previous = w.f[n - 2];
  const last = w.f[n - 1];
  let result = last;
  if (!isRate || !(last < previous)) result = last - previous;
  if (isRate) result /= interval / 1000;
  return result;
}

/** Upstream's average with compensated summation, switching to an incremental mean on overflow. */
function average(values: Float64Array, from: number, to: number): number {
  let sum = values[from];
  let c = 0;
  let mean = 0;
  let incremental = false;
  for (let i = from + 1; i < to; i++) {
    const count = i - from + 1;
    if (!incremental) {
      const [next, nextC] = kahanInc(values[i], sum, c);
      if (Number.isFinite(next) || Number.isNaN(next)) {
        sum = next;
        c = nextC;
        continue;
      }
      incremental = true;
      mean = sum / (count - 1);
      c /= count - 1;
    }
    const q = (count - 1) / count;
    [mean, c] = kahanInc(values[i] / count, q * mean, q * c);
  }
  if (incremental) return mean + c;
  const n = to - from;
  return sum / n + c / n;
}

function variance(values: Float64Array, from: number, to: number): number {
  let count = 0;
  let mean = 0;
  let cMean = 0;
  let aux = 0;
  let cAux = 0;
  for (let i = from; i < to; i++) {
    const v = values[i];
    count++;
    const delta = v - (mean + cMean);
    [mean, cMean] = kahanInc(delta / count, mean, cMean);
    [aux, cAux] = kahanInc(delta * (v - (mean + cMean)), aux, cAux);
  }
  return (aux + cAux) / count;
}

/** Least squares over `[from, to)` with `x` in seconds from `interceptTime`. */
export function linearRegression(
  t: Float64Array,
  f: Float64Array,
  interceptTime: number,
  from = 0,
  to = t.length,
): [slope: number, intercept: number] {
  let n = 0;
  let sumX = 0;
  let cX = 0;
  let sumY = 0;
  let cY = 0;
  let sumXY = 0;
  let cXY = 0;
  let sumX2 = 0;
  let cX2 = 0;
  const initY = f[from];
  let constY = true;
  for (let i = from; i < to; i++) {
    if (constY && i > from && f[i] !== initY) constY = false;
    n++;
    const x = (t[i] - interceptTime) / 1000;
    [sumX, cX] = kahanInc(x, sumX, cX);
    [sumY, cY] = kahanInc(f[i], sumY, cY);
    [sumXY, cXY] = kahanInc(x * f[i], sumXY, cXY);
    [sumX2, cX2] = kahanInc(x * x, sumX2, cX2);
  }
  if (constY) {
    if (!Number.isFinite(initY) && !Number.isNaN(initY)) return [NaN, NaN];
    return [0, initY];
  }
  sumX += cX;
  sumY += cY;
  sumXY += cXY;
  sumX2 += cX2;
  const covXY = sumXY - (sumX * sumY) / n;
  const varX = sumX2 - (sumX * sumX) / n;
  const slope = covXY / varX;
  return [slope, sumY / n - (slope * sumX) / n];
}

function extreme(w: Window, better: (cur: number, best: number) => boolean, timestamp: boolean) {
  let best = w.f[w.from];
  let at = w.t[w.from];
  for (let i = w.from; i < w.to; i++) {
    if (better(w.f[i], best)) {
      best = w.f[i];
      at = w.t[i];
    }
  }
  return timestamp ? at / 1000 : best;
}

const isMax = (cur: number, best: number) => cur > best || Number.isNaN(best);
const isMin = (cur: number, best: number) => cur < best || Number.isNaN(best);
const maxOverTime: RangeFunction = (w) => extreme(w, isMax, false);
const minOverTime: RangeFunction = (w) => extreme(w, isMin, false);

/**
 * The functions a range query may evaluate with a {@link SlidingExtreme} over its steps instead
 * of one window at a time: whether each is the maximum.
 */
export const SLIDING_EXTREMES: ReadonlyMap<RangeFunction, boolean> = new Map([
  [maxOverTime, true],
  [minOverTime, false],
]);

/** Functions over range vectors, by name. */
export const RANGE_FUNCTIONS: ReadonlyMap<string, RangeFunction> = new Map<string, RangeFunction>([
  ['rate', (w) => extrapolatedRate(w, true, true)],
  ['increase', (w) => extrapolatedRate(w, true, false)],
  ['delta', (w) => extrapolatedRate(w, false, false)],
  ['irate', (w) => instantValue(w, true)],
  ['idelta', (w) => instantValue(w, false)],
  ['avg_over_time', (w) => average(w.f, w.from, w.to)],
  ['count_over_time', (w) => w.to - w.from],
  [
    'sum_over_time',
    (w) => {
      let sum = 0;
      let c = 0;
      for (let i = w.from; i < w.to; i++) [sum, c] = kahanInc(w.f[i], sum, c);
      return Number.isFinite(sum) || Number.isNaN(sum) ? sum + c : sum;
    },
  ],
  ['min_over_time', minOverTime],
  ['max_over_time', maxOverTime],
  ['ts_of_min_over_time', (w) => extreme(w, (c, b) => c <= b || Number.isNaN(b), true)],
  ['ts_of_max_over_time', (w) => extreme(w, (c, b) => c >= b || Number.isNaN(b), true)],
  ['ts_of_first_over_time', (w) => w.t[w.from] / 1000],
  ['ts_of_last_over_time', (w) => w.t[w.to - 1] / 1000],
  ['first_over_time', (w) => w.f[w.from]],
  ['last_over_time', (w) => w.f[w.to - 1]],
  ['present_over_time', () => 1],
  ['absent_over_time', () => 1],
  ['stddev_over_time', (w) => Math.sqrt(variance(w.f, w.from, w.to))],
  ['stdvar_over_time', (w) => variance(w.f, w.from, w.to)],
  ['quantile_over_time', (w) => quantile(w.args[0], Array.from(w.f.subarray(w.from, w.to)))],
  [
    'mad_over_time',
    (w) => {
      const values = w.f.subarray(w.from, w.to);
      if (values.some(Number.isNaN)) return NaN;
      const median = quantile(0.5, Array.from(values));
      return quantile(
        0.5,
        Array.from(values, (v) => Math.abs(v - median)),
      );
    },
  ],
  [
    'changes',
    (w) => {
      const from = firstIndex(w);
      if (from === undefined) return undefined;
      let changes = 0;
      for (let i = from + 1; i < w.to; i++) {
        const prev = w.f[i - 1];
        const cur = w.f[i];
        if (cur !== prev && !(Number.isNaN(cur) && Number.isNaN(prev))) changes++;
      }
      return changes;
    },
  ],
  [
    'resets',
    (w) => {
      const from = firstIndex(w);
      if (from === undefined) return undefined;
      let resets = 0;
      for (let i = from + 1; i < w.to; i++) if (w.f[i] < w.f[i - 1]) resets++;
      return resets;
    },
  ],
  [
    'deriv',
    (w) =>
      w.to - w.from < 2 ? undefined : linearRegression(w.t, w.f, w.t[w.from], w.from, w.to)[0],
  ],
  [
    'predict_linear',
    (w) => {
      if (w.to - w.from < 2) return undefined;
      const [slope, intercept] = linearRegression(w.t, w.f, w.ts, w.from, w.to);
      return slope * w.args[0] + intercept;
    },
  ],
  ['double_exponential_smoothing', doubleExponentialSmoothing],
]);

/** Holt's linear smoothing with factor `sf` and trend factor `tf`, as upstream. */
function doubleExponentialSmoothing(w: Window): number | undefined {
  const [sf, tf] = w.args;
  if (sf <= 0 || sf >= 1) {
    throw new PromqlEvalError(`invalid smoothing factor. Expected: 0 < sf < 1, got: ${goF(sf)}`);
  }
  if (tf <= 0 || tf >= 1) {
    throw new PromqlEvalError(`invalid trend factor. Expected: 0 < tf < 1, got: ${goF(tf)}`);
  }
  const { f, from } = w;
  const l = w.to - from;
  if (l < 2) return undefined;
  let s0 = 0;
  let s1 = f[from];
  let b = f[from + 1] - f[from];
  for (let i = 1; i < l; i++) {
    const x = sf * f[from + i];
    if (i > 1) b = tf * (s1 - s0) + (1 - tf) * b;
    const y = (1 - sf) * (s1 + b);
    s0 = s1;
    s1 = x + y;
  }
  return s1;
}

/** Whether a range function keeps `__name__` (the ones that act like `offset`). */
export function keepsMetricName(name: string): boolean {
  return name === 'last_over_time' || name === 'first_over_time';
}

export { compareValues };

/** Refuses `anchored` or `smoothed` on a function that does not take it, in upstream's words. */
export function checkRangeModifiers(name: string, anchored: boolean, smoothed: boolean): void {
  if (anchored && !ANCHORED_SAFE.includes(name)) {
    throw new PromqlEvalError(
      `anchored modifier can only be used with: ${ANCHORED_SAFE.join(', ')} - not with ${name}`,
    );
  }
  if (smoothed && !SMOOTHED_SAFE.includes(name)) {
    throw new PromqlEvalError(
      `smoothed modifier can only be used with: ${SMOOTHED_SAFE.join(', ')} - not with ${name}`,
    );
  }
}

/** Whether a metric's name says it is a counter, for upstream's info on `rate`/`increase`. */
export function isCounterName(name: string): boolean {
  return /_(total|sum|count|bucket)$/.test(name);
}
