import type { Labels } from '../../tsdb/labels';
import type { SampleRun } from '../../tsdb/queryable';
import type { Sample, Series } from './values';

// Series as the evaluator handles them: stored runs turned into series, windows and samples.

export function pointCount(series: readonly Series[]): number {
  let total = 0;
  for (const s of series) total += s.t.length;
  return total;
}

/** The sample of a series at step `ts` as a one-element list, or none. */
export function sampleAt(series: Series, ts: number): Sample[] {
  const i = series.t.indexOf(ts);
  return i < 0 ? [] : [{ metric: series.metric, f: series.f[i], t: ts, dropName: series.dropName }];
}

/** A stored run with its staleness markers left out (copied only when it has any). */
export function withoutStale(run: SampleRun): { t: Float64Array; v: Float64Array } {
  if (run.stale === undefined || !run.stale.includes(1)) return run;
  const keep = run.t.length - run.stale.reduce((n, x) => n + x, 0);
  const t = new Float64Array(keep);
  const v = new Float64Array(keep);
  let k = 0;
  for (let i = 0; i < run.t.length; i++) {
    if (run.stale[i] === 1) continue;
    t[k] = run.t[i];
    v[k++] = run.v[i];
  }
  return { t, v };
}

/** A stored run as a series, staleness markers left out. */
export function seriesFromRun(metric: Labels, run: SampleRun): Series {
  const t: number[] = [];
  const f: number[] = [];
  for (let i = 0; i < run.t.length; i++) {
    if (run.stale?.[i] === 1) continue;
    t.push(run.t[i]);
    f.push(run.v[i]);
  }
  return { metric, t, f, dropName: false };
}

/** The points with `from < t <= to`. */
export function slice(series: Series, from: number, to: number): [number[], number[]] {
  let lo = 0;
  while (lo < series.t.length && series.t[lo] <= from) lo++;
  let hi = lo;
  while (hi < series.t.length && series.t[hi] <= to) hi++;
  return [series.t.slice(lo, hi), series.f.slice(lo, hi)];
}

export function windowOf(series: Series, from: number, to: number): Series {
  const [t, f] = slice(series, from, to);
  return { metric: series.metric, t, f, dropName: series.dropName };
}
