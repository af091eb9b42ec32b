import { Labels } from '../../tsdb/labels';
import { compareGoStrings } from '../../labels/label-set-format';
import { compareLabels } from '../../tsdb/labels';
import { bucketFraction, bucketQuantile, bucketsBySeries } from './classic-histogram';
import { compareValues, formatOpenMetricsFloat, goFormatG } from './float-math';
import type { Annotations } from './annotations';
import type { HistogramQuantileNotes } from './histogram-quantile-steps';
import type { Expr } from '../ast';
import type { Sample, Vector } from './values';

/** What a function over instant vectors sees at one step. */
export interface StepCall {
  /** The arguments' values at this step (a scalar is a one-sample vector; strings are empty). */
  readonly vectors: readonly Vector[];
  /** The string arguments, by position. */
  readonly strings: readonly (string | undefined)[];
  readonly ts: number;
  /** Where warnings and infos go, and the call's arguments for their positions. */
  readonly annotations: Annotations;
  readonly args: readonly Expr[];
  /** The labels of a result that drops the metric name (at once, or kept until the end). */
  readonly dropName: (metric: Labels) => Labels;
  /** Whether names are removed when the query finishes, so notes can still name the metric. */
  readonly delayedNameRemoval: boolean;
}

export type VectorFunction = (call: StepCall) => Vector;

/** Applies `f` to every sample's value; the result drops `__name__`. */
function mapValues(f: (v: number) => number): VectorFunction {
  return ({ vectors, dropName }) =>
    vectors[0].map((s) => ({ metric: dropName(s.metric), f: f(s.f), t: s.t, dropName: true }));
}

function scalarArg(call: StepCall, index: number): number {
  return call.vectors[index][0].f;
}

function clamp(call: StepCall, min: number, max: number): Vector {
  if (max < min) return [];
  return call.vectors[0].map((s) => ({
    metric: call.dropName(s.metric),
    f: Math.max(min, Math.min(max, s.f)),
    t: s.t,
    dropName: true,
  }));
}

/** A date part of each sample's value (seconds since the epoch, UTC), or of the step time. */
function datePart(part: (d: Date) => number): VectorFunction {
  return ({ vectors, ts, dropName }) => {
    if (vectors.length === 0) {
      return [
        {
          metric: Labels.EMPTY,
          f: part(new Date(Math.trunc(ts / 1000) * 1000)),
          t: ts,
          dropName: false,
        },
      ];
    }
    return vectors[0].map((s) => ({
      metric: dropName(s.metric),
      f: part(new Date(Math.trunc(s.f) * 1000)),
      t: s.t,
      dropName: true,
    }));
  };
}

function dayOfYear(d: Date): number {
  return Math.floor((d.getTime() - Date.UTC(d.getUTCFullYear(), 0, 1)) / 86_400_000) + 1;
}

/** Natural sort order of label values (digit runs compare as numbers), as upstream's natsort. */
function naturalLess(a: string, b: string): boolean {
  const chunk = /(\d+|\D+)/g;
  const ca = a.match(chunk) ?? [];
  const cb = b.match(chunk) ?? [];
  for (let i = 0; i < Math.min(ca.length, cb.length); i++) {
    const x = ca[i];
    const y = cb[i];
    if (x === y) continue;
    const xd = /^\d/.test(x);
    const yd = /^\d/.test(y);
    if (xd && yd) {
      const xn = BigInt(x);
      const yn = BigInt(y);
      if (xn !== yn) return xn < yn;
      return x.length < y.length;
    }
    return compareGoStrings(x, y) < 0;
  }
  return ca.length < cb.length;
}

function sortByLabel(call: StepCall, descending: boolean): Vector {
  const names = call.strings.slice(1).filter((s): s is string => s !== undefined);
  return [...call.vectors[0]].sort((a, b) => {
    for (const name of names) {
      const x = a.metric.get(name);
      const y = b.metric.get(name);
      if (x === y) continue;
      const less = naturalLess(x, y);
      return descending ? (less ? 1 : -1) : less ? -1 : 1;
    }
    const order = compareLabels(a.metric, b.metric);
    return descending ? -order : order;
  });
}

const RADIANS_PER_DEGREE = Math.PI / 180;

/** Upstream's warning for a φ outside [0, 1], at the argument's position. */
function checkQuantile(call: StepCall, q: number, argIndex: number): void {
  warnQuantile(call.annotations, call.args[argIndex], q);
}

function warnQuantile(annotations: Annotations, arg: Expr, q: number): void {
  if (Number.isNaN(q) || q < 0 || q > 1) {
    annotations.warn(`quantile value should be between 0 and 1, got ${goFormatG(q)}`, arg.pos);
  }
}

function warnBadBucket(annotations: Annotations, arg: Expr, metricName: string, le: string): void {
  const name = metricName === '' ? '' : ` for metric name ${JSON.stringify(metricName)}`;
  annotations.warn(
    `bucket label "le" is missing or has a malformed value of ${JSON.stringify(le)}${name}`,
    arg.pos,
  );
}

/** Classic buckets of the vector argument, warning about buckets without a usable `le`. */
function buckets(call: StepCall, argIndex: number) {
  return bucketsBySeries(call.vectors[argIndex], (metricName, le) =>
    warnBadBucket(
      call.annotations,
      call.args[argIndex],
      call.delayedNameRemoval ? metricName : '',
      le,
    ),
  );
}

/** `histogram_quantile(φ, buckets)`'s warnings and infos, worded as upstream's. */
export function histogramQuantileNotes(
  annotations: Annotations,
  args: readonly Expr[],
  delayedNameRemoval: boolean,
): HistogramQuantileNotes {
  // Upstream names the metric only while the name is still there: with delayed removal.
  const named = (metricName: string) => (delayedNameRemoval ? metricName : '');
  return {
    quantile: (q) => warnQuantile(annotations, args[0], q),
    badBucket: (metricName, le) => warnBadBucket(annotations, args[1], named(metricName), le),
    fixed: (metricName, ts, fix) =>
      annotations.monotonicityFixed(
        named(metricName),
        args[1].pos,
        ts,
        fix.minBucket,
        fix.maxBucket,
        fix.maxDiff,
      ),
  };
}

/** The φ-quantile of each histogram, noting where buckets had to be made monotonic. */
function quantiles(
  call: StepCall,
  q: number,
  groups: ReturnType<typeof buckets>,
  labelled?: string,
): Vector {
  return groups.map(({ metric, buckets: b }) => ({
    metric:
      labelled === undefined
        ? call.dropName(metric)
        : call.dropName(metric).with(labelled, formatOpenMetricsFloat(q)),
    f: bucketQuantile(q, b, (fix) =>
      call.annotations.monotonicityFixed(
        call.delayedNameRemoval ? metric.get('__name__') : '',
        call.args[labelled === undefined ? 1 : 0].pos,
        call.ts,
        fix.minBucket,
        fix.maxBucket,
        fix.maxDiff,
      ),
    ),
    t: call.ts,
    dropName: true,
  }));
}

/** Functions over instant vectors and scalars, by name. */
export const VECTOR_FUNCTIONS: ReadonlyMap<string, VectorFunction> = new Map<
  string,
  VectorFunction
>([
  ['abs', mapValues(Math.abs)],
  ['ceil', mapValues(Math.ceil)],
  ['floor', mapValues(Math.floor)],
  ['exp', mapValues(Math.exp)],
  ['sqrt', mapValues(Math.sqrt)],
  ['ln', mapValues(Math.log)],
  ['log2', mapValues(Math.log2)],
  ['log10', mapValues(Math.log10)],
  ['sin', mapValues(Math.sin)],
  ['cos', mapValues(Math.cos)],
  ['tan', mapValues(Math.tan)],
  ['asin', mapValues(Math.asin)],
  ['acos', mapValues(Math.acos)],
  ['atan', mapValues(Math.atan)],
  ['sinh', mapValues(Math.sinh)],
  ['cosh', mapValues(Math.cosh)],
  ['tanh', mapValues(Math.tanh)],
  ['asinh', mapValues(Math.asinh)],
  ['acosh', mapValues(Math.acosh)],
  ['atanh', mapValues(Math.atanh)],
  ['rad', mapValues((v) => v * RADIANS_PER_DEGREE)],
  ['deg', mapValues((v) => v / RADIANS_PER_DEGREE)],
  ['sgn', mapValues((v) => (v < 0 ? -1 : v > 0 ? 1 : v))],
  [
    'round',
    (call) => {
      const toNearest = call.vectors.length >= 2 ? scalarArg(call, 1) : 1;
      const inverse = 1 / toNearest;
      return mapValues((v) => Math.floor(v * inverse + 0.5) / inverse)(call);
    },
  ],
  ['clamp', (call) => clamp(call, scalarArg(call, 1), scalarArg(call, 2))],
  ['clamp_max', (call) => clamp(call, -Infinity, scalarArg(call, 1))],
  ['clamp_min', (call) => clamp(call, scalarArg(call, 1), Infinity)],
  [
    'min_of',
    (call) => [
      {
        metric: Labels.EMPTY,
        f: Math.min(scalarArg(call, 0), scalarArg(call, 1)),
        t: call.ts,
        dropName: false,
      },
    ],
  ],
  [
    'max_of',
    (call) => [
      {
        metric: Labels.EMPTY,
        f: Math.max(scalarArg(call, 0), scalarArg(call, 1)),
        t: call.ts,
        dropName: false,
      },
    ],
  ],
  ['pi', ({ ts }) => [{ metric: Labels.EMPTY, f: Math.PI, t: ts, dropName: false }]],
  ['time', ({ ts }) => [{ metric: Labels.EMPTY, f: ts / 1000, t: ts, dropName: false }]],
  [
    'timestamp',
    ({ vectors, dropName }) =>
      vectors[0].map((s) => ({
        metric: dropName(s.metric),
        f: s.t / 1000,
        t: s.t,
        dropName: true,
      })),
  ],
  [
    'vector',
    (call) => [{ metric: Labels.EMPTY, f: scalarArg(call, 0), t: call.ts, dropName: false }],
  ],
  [
    'scalar',
    ({ vectors, ts }) => [
      {
        metric: Labels.EMPTY,
        f: vectors[0].length === 1 ? vectors[0][0].f : NaN,
        t: ts,
        dropName: false,
      },
    ],
  ],
  ['sort', ({ vectors }) => [...vectors[0]].sort((a, b) => nanLast(a, b, 1))],
  ['sort_desc', ({ vectors }) => [...vectors[0]].sort((a, b) => nanLast(a, b, -1))],
  ['sort_by_label', (call) => sortByLabel(call, false)],
  ['sort_by_label_desc', (call) => sortByLabel(call, true)],
  [
    'histogram_quantiles',
    (call) => {
      const label = call.strings[1] ?? '';
      for (let i = 2; i < call.vectors.length; i++) checkQuantile(call, scalarArg(call, i), i);
      const groups = buckets(call, 0);
      const out: Vector = [];
      for (let i = 2; i < call.vectors.length; i++)
        out.push(...quantiles(call, scalarArg(call, i), groups, label));
      return out;
    },
  ],
  [
    'histogram_fraction',
    (call) => {
      const lower = scalarArg(call, 0);
      const upper = scalarArg(call, 1);
      return buckets(call, 2).map(({ metric, buckets: b }) => ({
        metric: call.dropName(metric),
        f: bucketFraction(lower, upper, b),
        t: call.ts,
        dropName: true,
      }));
    },
  ],
  // Native histograms are not stored: these see only floats and so return nothing.
  ['histogram_count', () => []],
  ['histogram_sum', () => []],
  ['histogram_avg', () => []],
  ['histogram_stddev', () => []],
  ['histogram_stdvar', () => []],
  [
    'days_in_month',
    datePart((d) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate()),
  ],
  ['day_of_month', datePart((d) => d.getUTCDate())],
  ['day_of_week', datePart((d) => d.getUTCDay())],
  ['day_of_year', datePart(dayOfYear)],
  ['hour', datePart((d) => d.getUTCHours())],
  ['minute', datePart((d) => d.getUTCMinutes())],
  ['month', datePart((d) => d.getUTCMonth() + 1)],
  ['year', datePart((d) => d.getUTCFullYear())],
]);

/** `sort` (direction 1) and `sort_desc` (-1): by value, NaN last either way. */
function nanLast(a: Sample, b: Sample, direction: 1 | -1): number {
  if (Number.isNaN(a.f)) return Number.isNaN(b.f) ? 0 : 1;
  if (Number.isNaN(b.f)) return -1;
  return direction * compareValues(a.f, b.f);
}
