import type { Labels } from '../../tsdb/labels';
import {
  bucketOf,
  compareBounds,
  sortedBucketQuantile,
  type MonotonicityFix,
} from './classic-histogram';
import { checkDeadline, holdPoints, releasePoints, type QueryLimits } from './query-limits';
import { pointCount } from './series-runs';
import { dropNamesNow } from './name-removal';
import { StepPoints } from './step-points';
import type { Series } from './values';

/** What `histogram_quantile` reports as it goes, in upstream's words (the caller words them). */
export interface HistogramQuantileNotes {
  /** φ at a step, to warn when it is outside [0, 1]. */
  quantile(q: number): void;
  /** A bucket series whose `le` is missing or not a number, at a step it has a point. */
  badBucket(metricName: string, le: string): void;
  /** A histogram's counts that had to be raised to be monotonic at a step. */
  fixed(metricName: string, ts: number, fix: MonotonicityFix): void;
}

/** One histogram: its bucket series in bound order (equal bounds in input order). */
interface Histogram {
  readonly metric: Labels;
  readonly members: number[];
  readonly bounds: Float64Array;
  points: StepPoints;
  /** The step it first has a value at, and its first bucket's input index there: its order. */
  firstStep: number;
  firstIndex: number;
}

/**
 * `histogram_quantile(φ, buckets)` over every step at once. Upstream works step by step: it groups
 * the step's buckets by histogram, sorts them by bound and interpolates. The grouping and the sort
 * do not change from step to step, so they are done once here; each step only gathers the counts
 * present, adds equal bounds together in the same order and interpolates, with the same
 * arithmetic as one step alone. Histograms come out in the order the step-by-step pass gives.
 */
export function histogramQuantileAtSteps(
  quantileSeries: readonly Series[],
  input: readonly Series[],
  timestamps: readonly number[],
  limits: QueryLimits,
  notes: HistogramQuantileNotes,
  delayedNameRemoval: boolean,
): Series[] {
  const quantiles = quantileSeries[0];
  const byKey = new Map<string, Histogram>();
  const histograms: Histogram[] = [];
  const bad: number[] = [];
  const boundOf: number[] = [];
  input.forEach((series, index) => {
    const bucket = bucketOf(series.metric);
    boundOf.push(bucket.upperBound ?? NaN);
    if (bucket.upperBound === undefined) {
      bad.push(index);
      return;
    }
    let histogram = byKey.get(bucket.key);
    if (histogram === undefined) {
      histogram = {
        metric: bucket.histogram,
        members: [],
        bounds: new Float64Array(0),
        points: new StepPoints(timestamps),
        firstStep: -1,
        firstIndex: -1,
      };
      byKey.set(bucket.key, histogram);
      histograms.push(histogram);
    }
    histogram.members.push(index);
  });
  let widest = 0;
  for (const histogram of histograms) {
    histogram.members.sort((a, b) => compareBounds(boundOf[a], boundOf[b]));
    (histogram as { bounds: Float64Array }).bounds = Float64Array.from(
      histogram.members,
      (i) => boundOf[i],
    );
    widest = Math.max(widest, histogram.members.length);
  }
  const counts = new Float64Array(widest);
  const bounds = new Float64Array(widest);
  const cursors = new Int32Array(input.length);
  let qCursor = 0;
  // What a monotonicity fix is reported with: the histogram and step being computed.
  let fixedAt = 0;
  let fixedName = '';
  const fixed = (fix: MonotonicityFix) => notes.fixed(fixedName, fixedAt, fix);
  for (let step = 0; step < timestamps.length; step++) {
    checkDeadline(limits);
    const ts = timestamps[step];
    // No φ at this step (it is a scalar, so this is rare): nothing, as upstream.
    if (quantiles === undefined) break;
    while (qCursor < quantiles.t.length && quantiles.t[qCursor] < ts) qCursor++;
    if (quantiles.t[qCursor] !== ts) continue;
    const q = quantiles.f[qCursor];
    notes.quantile(q);
    for (const index of bad) {
      if (pointAt(input[index], cursors, index, ts) >= 0) {
        const metric = input[index].metric;
        notes.badBucket(metric.get('__name__'), metric.get('le'));
      }
    }
    for (const histogram of histograms) {
      const { members } = histogram;
      let n = 0;
      let first = Infinity;
      for (let m = 0; m < members.length; m++) {
        const index = members[m];
        const series = input[index];
        const at = pointAt(series, cursors, index, ts);
        if (at < 0) continue;
        const value = series.f[at];
        if (index < first) first = index;
        const bound = histogram.bounds[m];
        if (n > 0 && bounds[n - 1] === bound) {
          counts[n - 1] += value;
        } else {
          bounds[n] = bound;
          counts[n] = value;
          n++;
        }
      }
      if (n === 0) continue;
      if (histogram.firstStep < 0) {
        histogram.firstStep = step;
        histogram.firstIndex = first;
      }
      fixedAt = ts;
      fixedName = histogram.metric.get('__name__');
      histogram.points.push(step, sortedBucketQuantile(q, bounds, counts, n, fixed));
    }
  }
  const out: Series[] = [];
  const ordered = histograms
    .filter((h) => h.firstStep >= 0)
    .sort((a, b) => a.firstStep - b.firstStep || a.firstIndex - b.firstIndex);
  for (const histogram of ordered) {
    const series = histogram.points.series(histogram.metric, true);
    if (series !== undefined) out.push(series);
  }
  releasePoints(limits, pointCount(input) + pointCount(quantileSeries));
  // Histograms of different names that now share their labels meet as upstream's steps do.
  const result = delayedNameRemoval ? out : dropNamesNow(out);
  holdPoints(limits, pointCount(result));
  return result;
}

/** The index of the series' point at `ts` (-1: none), moving its cursor forward (steps ascend). */
function pointAt(series: Series, cursors: Int32Array, index: number, ts: number): number {
  let at = cursors[index];
  while (at < series.t.length && series.t[at] < ts) at++;
  cursors[index] = at;
  return at < series.t.length && series.t[at] === ts ? at : -1;
}
