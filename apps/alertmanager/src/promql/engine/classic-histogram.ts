import { Labels } from '../../tsdb/labels';
import { almostEqual } from './float-math';
import type { Sample } from './values';

export interface Bucket {
  upperBound: number;
  count: number;
}

/** Relative difference under which neighbouring cumulative counts are taken as equal. */
const SMALL_DELTA_TOLERANCE = 1e-12;

/**
 * Groups classic histogram buckets (`le` label) by their series without `le` (and without
 * `__name__`, kept from the first bucket), skipping buckets whose `le` is not a number.
 */
export function bucketsBySeries(
  samples: readonly Sample[],
  badBucket?: (metricName: string, le: string) => void,
): { metric: Labels; buckets: Bucket[] }[] {
  const groups = new Map<string, { metric: Labels; buckets: Bucket[] }>();
  for (const sample of samples) {
    const bucket = bucketOf(sample.metric);
    if (bucket.upperBound === undefined) {
      badBucket?.(sample.metric.get('__name__'), sample.metric.get('le'));
      continue;
    }
    let group = groups.get(bucket.key);
    if (group === undefined) {
      group = { metric: bucket.histogram, buckets: [] };
      groups.set(bucket.key, group);
    }
    group.buckets.push({ upperBound: bucket.upperBound, count: sample.f });
  }
  return [...groups.values()];
}

/** What a bucket series' labels say: its bound, and its histogram's key and labels. */
export interface BucketLabels {
  readonly upperBound: number | undefined;
  readonly key: string;
  readonly histogram: Labels;
}

/**
 * Bucket labels by label set. A range query meets the same series' labels at every step; label
 * sets are immutable, so what they say is worked out once.
 */
const bucketLabels = new WeakMap<Labels, BucketLabels>();

export function bucketOf(metric: Labels): BucketLabels {
  let found = bucketLabels.get(metric);
  if (found === undefined) {
    found = {
      upperBound: parseGoFloat(metric.get('le')),
      key: metric.signature(['le'], false),
      histogram: metric.without(['le']),
    };
    bucketLabels.set(metric, found);
  }
  return found;
}

/** Go's `strconv.ParseFloat` of a bucket bound; undefined when it is not a number. */
function parseGoFloat(text: string): number | undefined {
  const lower = text.toLowerCase();
  if (['+inf', 'inf', '+infinity', 'infinity'].includes(lower)) return Infinity;
  if (['-inf', '-infinity'].includes(lower)) return -Infinity;
  if (lower === 'nan') return NaN;
  const clean = text.replace(/_/g, '');
  if (
    !/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(clean) &&
    !/^[+-]?0[xX][0-9a-fA-F.]+([pP][+-]?\d+)?$/.test(clean)
  ) {
    return undefined;
  }
  return Number(clean);
}

/** Orders bounds ascending; a stable sort keeps equal bounds in input order. */
export function compareBounds(a: number, b: number): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Copies of the buckets sorted by bound, those with equal bounds added together in order. */
function sortAndCoalesce(buckets: Bucket[]): Bucket[] {
  const sorted = [...buckets].sort((a, b) => compareBounds(a.upperBound, b.upperBound));
  const out: Bucket[] = [];
  for (const b of sorted) {
    const last = out[out.length - 1];
    if (last !== undefined && last.upperBound === b.upperBound) last.count += b.count;
    else out.push({ ...b });
  }
  return out;
}

/** Where cumulative counts had to be raised, for upstream's info annotation. */
export interface MonotonicityFix {
  minBucket: number;
  maxBucket: number;
  maxDiff: number;
}

/**
 * Makes cumulative counts monotonic, as upstream (tiny relative differences are rounding):
 * `counts[0..n)`, in the order of `bounds`.
 */
function ensureMonotonic(
  bounds: ArrayLike<number>,
  counts: Float64Array,
  n: number,
): MonotonicityFix | undefined {
  let fix: MonotonicityFix | undefined;
  let prev = counts[0];
  for (let i = 1; i < n; i++) {
    const curr = counts[i];
    if (curr === prev) continue;
    if (almostEqual(prev, curr, SMALL_DELTA_TOLERANCE)) {
      counts[i] = prev;
      continue;
    }
    if (curr < prev) {
      counts[i] = prev;
      fix ??= { minBucket: Infinity, maxBucket: -Infinity, maxDiff: 0 };
      fix.minBucket = Math.min(fix.minBucket, bounds[i]);
      fix.maxBucket = Math.max(fix.maxBucket, bounds[i]);
      fix.maxDiff = Math.max(fix.maxDiff, prev - curr);
      continue;
    }
    prev = curr;
  }
  return fix;
}

/** The φ-quantile of a classic histogram, interpolating linearly within a bucket, as upstream. */
export function bucketQuantile(
  q: number,
  input: Bucket[],
  fixed?: (fix: MonotonicityFix) => void,
): number {
  const buckets = sortAndCoalesce(input);
  const bounds = new Float64Array(buckets.map((b) => b.upperBound));
  const counts = new Float64Array(buckets.map((b) => b.count));
  return sortedBucketQuantile(q, bounds, counts, buckets.length, fixed);
}

/**
 * The φ-quantile of `n` buckets already sorted by bound with equal bounds added together; the
 * counts are made monotonic in place.
 */
export function sortedBucketQuantile(
  q: number,
  bounds: ArrayLike<number>,
  counts: Float64Array,
  n: number,
  fixed?: (fix: MonotonicityFix) => void,
): number {
  if (Number.isNaN(q)) return NaN;
  if (q < 0) return -Infinity;
  if (q > 1) return Infinity;
  if (bounds[n - 1] !== Infinity) return NaN;
  const fix = ensureMonotonic(bounds, counts, n);
  if (fix) fixed?.(fix);
  if (n < 2) return NaN;
  const observations = counts[n - 1];
  if (observations === 0) return NaN;
  let rank = q * observations;
  let b = 0;
  while (b < n - 1 && !(counts[b] >= rank)) b++;
  if (b === n - 1) return bounds[n - 2];
  if (b === 0 && bounds[0] <= 0) return bounds[0];
  let bucketStart = 0;
  const bucketEnd = bounds[b];
  let count = counts[b];
  if (b > 0) {
    bucketStart = bounds[b - 1];
    count -= counts[b - 1];
    rank -= counts[b - 1];
  }
  return bucketStart + (bucketEnd - bucketStart) * (rank / count);
}

/** The share of observations between `lower` and `upper` in a classic histogram. */
export function bucketFraction(lower: number, upper: number, input: Bucket[]): number {
  const buckets = sortAndCoalesce(input);
  if (buckets[buckets.length - 1].upperBound !== Infinity) return NaN;
  const count = buckets[buckets.length - 1].count;
  if (count === 0 || Number.isNaN(lower) || Number.isNaN(upper)) return NaN;
  if (lower >= upper) return 0;
  let rank = 0;
  let lowerRank = 0;
  let upperRank = 0;
  let lowerSet = false;
  let upperSet = false;
  let lowerBound = buckets[0].upperBound <= 0 ? -Infinity : 0;
  for (let i = 0; i < buckets.length; i++) {
    const b = buckets[i];
    if (i > 0) lowerBound = buckets[i - 1].upperBound;
    const upperBound = b.upperBound;
    const interpolate = (v: number) =>
      lowerBound === -Infinity
        ? b.count
        : rank + ((b.count - rank) * (v - lowerBound)) / (upperBound - lowerBound);
    if (!lowerSet && lowerBound >= lower) {
      lowerRank = rank;
      lowerSet = true;
    }
    if (!upperSet && lowerBound >= upper) {
      upperRank = rank;
      upperSet = true;
    }
    if (lowerSet && upperSet) break;
    if (!lowerSet && lowerBound < lower && upperBound > lower) {
      lowerRank = interpolate(lower);
      lowerSet = true;
    }
    if (!upperSet && lowerBound < upper && upperBound > upper) {
      upperRank = interpolate(upper);
      upperSet = true;
    }
    if (lowerSet && upperSet) break;
    rank = b.count;
  }
  if (!lowerSet || lowerRank > count) lowerRank = count;
  if (!upperSet || upperRank > count) upperRank = count;
  return (upperRank - lowerRank) / count;
}

export { Labels };
