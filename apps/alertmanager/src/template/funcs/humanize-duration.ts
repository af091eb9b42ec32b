import { formatFloat } from './go-float';

/** Go's `%.4g`. */
const g4 = (v: number) => formatFloat(v, 'g', 4);

/**
 * Prometheus' `humanizeDuration` of a number of seconds: `1d 2h 3m 4s` down to minutes,
 * `4.5s` with four significant digits, and SI prefixes below a second (`250ms`).
 */
export function humanizeDuration(seconds: number): string {
  let v = seconds;
  if (Number.isNaN(v) || !Number.isFinite(v)) return g4(v);
  if (v === 0) return `${g4(v)}s`;
  if (Math.abs(v) >= 1) {
    const sign = v < 0 ? '-' : '';
    v = Math.abs(v);
    const total = Math.trunc(v);
    const s = total % 60;
    const m = Math.trunc(total / 60) % 60;
    const h = Math.trunc(total / 3600) % 24;
    const d = Math.trunc(total / 86400);
    if (d !== 0) return `${sign}${d}d ${h}h ${m}m ${s}s`;
    if (h !== 0) return `${sign}${h}h ${m}m ${s}s`;
    if (m !== 0) return `${sign}${m}m ${s}s`;
    return `${sign}${g4(v)}s`;
  }
  let prefix = '';
  for (const p of ['m', 'u', 'n', 'p', 'f', 'a', 'z', 'y']) {
    if (Math.abs(v) >= 1) break;
    prefix = p;
    v *= 1000;
  }
  return `${g4(v)}${prefix}s`;
}
