/** Index of the first timestamp `> ts` in ascending `t` (its length when none). */
export function firstAfter(t: Float64Array, ts: number): number {
  let lo = 0;
  let hi = t.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (t[mid] <= ts) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Index of the first timestamp `>= ts` in ascending `t` (its length when none). */
export function firstAtOrAfter(t: Float64Array, ts: number): number {
  let lo = 0;
  let hi = t.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (t[mid] < ts) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
