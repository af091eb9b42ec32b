/** Index of the first timestamp `> ts` in ascending `t[lo..hi)` (`hi` when none). */
export function firstAfter(t: Float64Array, ts: number, lo = 0, hi = t.length): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (t[mid] <= ts) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Index of the first timestamp `>= ts` in ascending `t[lo..hi)` (`hi` when none). */
export function firstAtOrAfter(t: Float64Array, ts: number, lo = 0, hi = t.length): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (t[mid] < ts) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
