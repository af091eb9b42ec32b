import { METRIC_NAME } from '../../tsdb/labels';
import { PromqlEvalError } from './errors';
import { firstAfter, firstAtOrAfter } from './time-search';
import { compareValues, goF, kahanInc, quantile } from './float-math';
import type { Series } from './values';

/** A series' samples in one step's window, and what the function needs to know of it. */
export interface Window {
  readonly t: Float64Array;
  readonly f: Float64Array;
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
}

/** Functions that accept an `anchored` range, and a `smoothed` one, as upstream. */
export const ANCHORED_SAFE = ['changes', 'delta', 'increase', 'rate', 'resets'];
export const SMOOTHED_SAFE = ['delta', 'increase', 'rate'];

function interpolate(
  t1: number,
  y1: number,
  t2: number,
  y2: number,
  t: number,
  isCounter: boolean,
): number {
  const start = isCounter && y2 < y1 ? 0 : y1;
  return start + ((y2 - start) * (t - t1)) / (t2 - t1);
}

/**
 * `rate`, `increase`, `delta` over an anchored or smoothed range: the change between the values
 * at the window's edges (the anchor sample, or interpolated), counter resets added back.
 */
function extendedRate(w: Window, isCounter: boolean, isRate: boolean): number | undefined {
  const { t, f, rangeStart, rangeEnd } = w;
  const smoothed = w.smoothed === true;
  let last = t.length - 1;
  let first = Math.max(0, firstAfter(t.subarray(0, last), rangeStart) - 1);
  if (smoothed) last = firstAtOrAfter(t.subarray(0, last), rangeEnd);
  if (t[last] <= rangeStart) return undefined;
  if (smoothed && t[first] > rangeEnd) return undefined;
  const left =
    smoothed && t[first] < rangeStart
      ? interpolate(t[first], f[first], t[first + 1], f[first + 1], rangeStart, isCounter)
      : f[first];
  const right =
    smoothed && last > 0 && t[last] > rangeEnd
      ? interpolate(t[last - 1], f[last - 1], t[last], f[last], rangeEnd, isCounter)
      : f[last];
  let result = right - left;
  if (isCounter) {
    if (t[first] <= rangeStart) first++;
    if (t[last] >= rangeEnd) last--;
    let previous = left;
    for (let i = first; i <= last; i++) {
      if (f[i] < previous) result += previous;
      previous = f[i];
    }
    if (right < previous) result += previous;
  }
  if (isRate) result /= w.rangeMs / 1000;
  return result;
}

/** Where `changes` and `resets` start: with `anchored`, at the last sample at or before the range. */
function firstIndex(w: Window): number | undefined {
  if (!w.anchored) return 0;
  const lastBefore = firstAfter(w.t, w.rangeStart) - 1;
  if (lastBefore + 1 >= w.t.length) return undefined;
  return lastBefore < 0 ? 0 : lastBefore;
}

/** A function over a range vector: the value for one series at one step, or none. */
export type RangeFunction = (w: Window) => number | undefined;

/**
 * `rate`, `increase` and `delta` as upstream computes them: the change over the window,
 * corrected for counter resets, extrapolated towards the window's edges by at most half an
 * average sample interval (and, for counters, not below zero).
 */
function extrapolatedRate(w: Window, isCounter: boolean, isRate: boolean): number | undefined {
  if (w.anchored || w.smoothed) return extendedRate(w, isCounter, isRate);
  const { t, f } = w;
  if (t.length < 2) return undefined;
  const last = t.length - 1;
  let result = f[last] - f[0];
  if (isCounter) {
    for (let i = 1; i < f.length; i++) if (f[i] < f[i - 1]) result += f[i - 1];
  }
  let durationToStart = (t[0] - w.rangeStart) / 1000;
  let durationToEnd = (w.rangeEnd - t[last]) / 1000;
  const sampledInterval = (t[last] - t[0]) / 1000;
  const averageInterval = sampledInterval / last;
  const threshold = averageInterval * 1.1;
  if (durationToStart >= threshold) durationToStart = averageInterval / 2;
  if (isCounter) {
    let durationToZero = durationToStart;
    if (result > 0 && f[0] >= 0) durationToZero = sampledInterval * (f[0] / result);
    if (durationToZero < durationToStart) durationToStart = durationToZero;
  }
  if (durationToEnd >= threshold) durationToEnd = averageInterval / 2;
  let factor =
    sampledInterval !== 0
      ? (sampledInterval + durationToStart + durationToEnd) / sampledInterval
      : 1;
  if (isRate) factor /= w.rangeMs / 1000;
  return result * factor;
}

/** `irate` and `idelta`: from the last two samples. */
function instantValue(w: Window, isRate: boolean): number | undefined {
  const n = w.t.length;
  if (n < 2) return undefined;
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
function average(values: Float64Array): number {
  let sum = values[0];
  let c = 0;
  let mean = 0;
  let incremental = false;
  for (let i = 1; i < values.length; i++) {
    const count = i + 1;
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
  return sum / values.length + c / values.length;
}

function variance(values: Float64Array): number {
  let count = 0;
  let mean = 0;
  let cMean = 0;
  let aux = 0;
  let cAux = 0;
  for (const v of values) {
    count++;
    const delta = v - (mean + cMean);
    [mean, cMean] = kahanInc(delta / count, mean, cMean);
    [aux, cAux] = kahanInc(delta * (v - (mean + cMean)), aux, cAux);
  }
  return (aux + cAux) / count;
}

/** Least squares over the window with `x` in seconds from `interceptTime`. */
export function linearRegression(
  t: Float64Array,
  f: Float64Array,
  interceptTime: number,
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
  const initY = f[0];
  let constY = true;
  for (let i = 0; i < t.length; i++) {
    if (constY && i > 0 && f[i] !== initY) constY = false;
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
  let best = w.f[0];
  let at = w.t[0];
  for (let i = 0; i < w.f.length; i++) {
    if (better(w.f[i], best)) {
      best = w.f[i];
      at = w.t[i];
    }
  }
  return timestamp ? at / 1000 : best;
}

const isMax = (cur: number, best: number) => cur > best || Number.isNaN(best);
const isMin = (cur: number, best: number) => cur < best || Number.isNaN(best);

/** Functions over range vectors, by name. */
export const RANGE_FUNCTIONS: ReadonlyMap<string, RangeFunction> = new Map<string, RangeFunction>([
  ['rate', (w) => extrapolatedRate(w, true, true)],
  ['increase', (w) => extrapolatedRate(w, true, false)],
  ['delta', (w) => extrapolatedRate(w, false, false)],
  ['irate', (w) => instantValue(w, true)],
  ['idelta', (w) => instantValue(w, false)],
  ['avg_over_time', (w) => average(w.f)],
  ['count_over_time', (w) => w.f.length],
  [
    'sum_over_time',
    (w) => {
      let sum = 0;
      let c = 0;
      for (const v of w.f) [sum, c] = kahanInc(v, sum, c);
      return Number.isFinite(sum) || Number.isNaN(sum) ? sum + c : sum;
    },
  ],
  ['min_over_time', (w) => extreme(w, isMin, false)],
  ['max_over_time', (w) => extreme(w, isMax, false)],
  ['ts_of_min_over_time', (w) => extreme(w, (c, b) => c <= b || Number.isNaN(b), true)],
  ['ts_of_max_over_time', (w) => extreme(w, (c, b) => c >= b || Number.isNaN(b), true)],
  ['ts_of_first_over_time', (w) => w.t[0] / 1000],
  ['ts_of_last_over_time', (w) => w.t[w.t.length - 1] / 1000],
  ['first_over_time', (w) => w.f[0]],
  ['last_over_time', (w) => w.f[w.f.length - 1]],
  ['present_over_time', () => 1],
  ['absent_over_time', () => 1],
  ['stddev_over_time', (w) => Math.sqrt(variance(w.f))],
  ['stdvar_over_time', (w) => variance(w.f)],
  ['quantile_over_time', (w) => quantile(w.args[0], Array.from(w.f))],
  [
    'mad_over_time',
    (w) => {
      if (w.f.some(Number.isNaN)) return NaN;
      const median = quantile(0.5, Array.from(w.f));
      return quantile(
        0.5,
        Array.from(w.f, (v) => Math.abs(v - median)),
      );
    },
  ],
  [
    'changes',
    (w) => {
      const from = firstIndex(w);
      if (from === undefined) return undefined;
      let changes = 0;
      for (let i = from + 1; i < w.f.length; i++) {
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
      for (let i = from + 1; i < w.f.length; i++) if (w.f[i] < w.f[i - 1]) resets++;
      return resets;
    },
  ],
  ['deriv', (w) => (w.t.length < 2 ? undefined : linearRegression(w.t, w.f, w.t[0])[0])],
  [
    'predict_linear',
    (w) => {
      if (w.t.length < 2) return undefined;
      const [slope, intercept] = linearRegression(w.t, w.f, w.ts);
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
  const l = w.f.length;
  if (l < 2) return undefined;
  let s0 = 0;
  let s1 = w.f[0];
  let b = w.f[1] - w.f[0];
  for (let i = 1; i < l; i++) {
    const x = sf * w.f[i];
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

/**
 * The metric names, one per series, of `rate`/`increase` results whose name does not say they
 * are counters (upstream's info); series of one query mostly share their name, checked once.
 */
export function nonCounterNames(series: readonly Series[]): string[] {
  const names: string[] = [];
  let counter = '';
  for (const { metric } of series) {
    const name = metric.get(METRIC_NAME);
    if (name === '' || name === counter) continue;
    if (/_(total|sum|count|bucket)$/.test(name)) {
      counter = name;
      continue;
    }
    names.push(name);
  }
  return names;
}
