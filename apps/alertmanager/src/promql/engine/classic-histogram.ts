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
interface BucketLabels {
  readonly upperBound: number | undefined;
  readonly key: string;
  readonly histogram: Labels;
}

/**
 * Bucket labels by label set. A range query meets the same series' labels at every step; label
 * sets are immutable, so what they say is worked out once.
 */
const bucketLabels = new WeakMap<Labels, BucketLabels>();

function bucketOf(metric: Labels): BucketLabels {
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

function sortAndCoalesce(buckets: Bucket[]): Bucket[] {
  const sorted = [...buckets].sort((a, b) =>
    a.upperBound < b.upperBound ? -1 : a.upperBound > b.upperBound ? 1 : 0,
  );
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

/** Makes cumulative counts monotonic, as upstream (tiny relative differences are rounding). */
function ensureMonotonic(buckets: Bucket[]): MonotonicityFix | undefined {
  let fix: MonotonicityFix | undefined;
  let prev = buckets[0].count;
  for (let i = 1; i < buckets.length; i++) {
    const curr = buckets[i].count;
    if (curr === prev) continue;
    if (almostEqual(prev, curr, SMALL_DELTA_TOLERANCE)) {
      buckets[i].count = prev;
      continue;
    }
    if (curr < prev) {
      buckets[i].count = prev;
      fix ??= { minBucket: Infinity, maxBucket: -Infinity, maxDiff: 0 };
      fix.minBucket = Math.min(fix.minBucket, buckets[i].upperBound);
      fix.maxBucket = Math.max(fix.maxBucket, buckets[i].upperBound);
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
  if (Number.isNaN(q)) return NaN;
  if (q < 0) return -Infinity;
  if (q > 1) return Infinity;
  let buckets = [...input].sort((a, b) =>
    a.upperBound < b.upperBound ? -1 : a.upperBound > b.upperBound ? 1 : 0,
  );
  if (buckets[buckets.length - 1].upperBound !== Infinity) return NaN;
  buckets = sortAndCoalesce(buckets);
  const fix = ensureMonotonic(buckets);
  if (fix) fixed?.(fix);
  if (buckets.length < 2) return NaN;
  const observations = buckets[buckets.length - 1].count;
  if (observations === 0) return NaN;
  let rank = q * observations;
  let b = 0;
  while (b < buckets.length - 1 && !(buckets[b].count >= rank)) b++;
  if (b === buckets.length - 1) return buckets[buckets.length - 2].upperBound;
  if (b === 0 && buckets[0].upperBound <= 0) return buckets[0].upperBound;
  let bucketStart = 0;
  const bucketEnd = buckets[b].upperBound;
  let count = buckets[b].count;
  if (b > 0) {
    bucketStart = buckets[b - 1].upperBound;
    count -= buckets[b - 1].count;
    rank -= buckets[b - 1].count;
  }
  return bucketStart + (bucketEnd - bucketStart) * (rank / count);
}

/** The share of observations between `lower` and `upper` in a classic histogram. */
export function bucketFraction(lower: number, upper: number, input: Bucket[]): number {
  const sorted = [...input].sort((a, b) =>
    a.upperBound < b.upperBound ? -1 : a.upperBound > b.upperBound ? 1 : 0,
  );
  if (sorted[sorted.length - 1].upperBound !== Infinity) return NaN;
  const buckets = sortAndCoalesce(sorted);
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
