import { firstAfter, firstAtOrAfter } from './time-search';
import type { Window } from './range-functions';

// `rate`, `increase` and `delta`: the change over a window, as upstream computes it.

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
  const { t, f, from, rangeStart, rangeEnd } = w;
  const smoothed = w.smoothed === true;
  let last = w.to - 1;
  let first = Math.max(from, firstAfter(t, rangeStart, from, last) - 1);
  if (smoothed) last = firstAtOrAfter(t, rangeEnd, from, last);
  if (t[last] <= rangeStart) return undefined;
  if (smoothed && t[first] > rangeEnd) return undefined;
  const left =
    smoothed && t[first] < rangeStart
      ? interpolate(t[first], f[first], t[first + 1], f[first + 1], rangeStart, isCounter)
      : f[first];
  const right =
    smoothed && last > from && t[last] > rangeEnd
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

/**
 * `rate`, `increase` and `delta` as upstream computes them: the change over the window,
 * corrected for counter resets, extrapolated towards the window's edges by at most half an
 * average sample interval (and, for counters, not below zero).
 */
export function extrapolatedRate(
  w: Window,
  isCounter: boolean,
  isRate: boolean,
): number | undefined {
  if (w.anchored || w.smoothed) return extendedRate(w, isCounter, isRate);
  const { t, f, from, to } = w;
  if (to - from < 2) return undefined;
  const last = to - 1;
  let result = f[last] - f[from];
  if (isCounter && (w.resets === undefined || w.resets.anyWithin(f, from, to))) {
    for (let i = from + 1; i < to; i++) if (f[i] < f[i - 1]) result += f[i - 1];
  }
  let durationToStart = (t[from] - w.rangeStart) / 1000;
  let durationToEnd = (w.rangeEnd - t[last]) / 1000;
  const sampledInterval = (t[last] - t[from]) / 1000;
  const averageInterval = sampledInterval / (last - from);
  const threshold = averageInterval * 1.1;
  if (durationToStart >= threshold) durationToStart = averageInterval / 2;
  if (isCounter) {
    let durationToZero = durationToStart;
    if (result > 0 && f[from] >= 0) durationToZero = sampledInterval * (f[from] / result);
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
