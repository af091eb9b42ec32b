import type { BinaryOp, VectorMatching } from '../ast';
import { METRIC_NAME, type Labels } from '../../tsdb/labels';
import { PromqlEvalError } from './errors';
import { goPow } from './float-math';
import { withoutMetadata } from './name-removal';
import { StepPoints } from './step-points';
import type { Sample, Series, Vector } from './values';

const COMPARISONS = new Set<BinaryOp>(['==', '!=', '>', '<', '>=', '<=']);

/** Operators whose result no longer measures what the metric name says. */
export function changesMetricSchema(op: BinaryOp): boolean {
  return (
    op === '+' ||
    op === '-' ||
    op === '*' ||
    op === '/' ||
    op === '%' ||
    op === '^' ||
    op === 'atan2'
  );
}

export function isComparison(op: BinaryOp): boolean {
  return COMPARISONS.has(op);
}

/** Go's `math.Mod`: the sign of the dividend, as JavaScript's `%`. */
function goMod(x: number, y: number): number {
  return x % y;
}

/** Arithmetic on two floats, or a comparison's truth as 1/0. */
export function scalarBinop(op: BinaryOp, lhs: number, rhs: number): number {
  switch (op) {
    case '+':
      return lhs + rhs;
    case '-':
      return lhs - rhs;
    case '*':
      return lhs * rhs;
    case '/':
      return lhs / rhs;
    case '^':
      return goPow(lhs, rhs);
    case '%':
      return goMod(lhs, rhs);
    case 'atan2':
      return Math.atan2(lhs, rhs);
    case '==':
      return lhs === rhs ? 1 : 0;
    case '!=':
      return lhs !== rhs ? 1 : 0;
    case '>':
      return lhs > rhs ? 1 : 0;
    case '<':
      return lhs < rhs ? 1 : 0;
    case '>=':
      return lhs >= rhs ? 1 : 0;
    case '<=':
      return lhs <= rhs ? 1 : 0;
    default:
      throw new PromqlEvalError(`operator "${op}" not allowed for Scalar operations`);
  }
}

/** An element operation: arithmetic keeps every result; a comparison keeps the left value if true. */
export function elementBinop(
  op: BinaryOp,
  lhs: number,
  rhs: number,
): [value: number, keep: boolean] {
  if (isComparison(op)) return [lhs, scalarBinop(op, lhs, rhs) === 1];
  return [scalarBinop(op, lhs, rhs), true];
}

/**
 * A vector and a scalar (`swap` when the scalar is on the left), series by series: each output
 * series comes from one input series with the same labels, so there is nothing to match and no
 * step-by-step regrouping. The scalar has a value at every step.
 */
export function vectorScalarBinop(
  op: BinaryOp,
  vector: readonly Series[],
  scalar: readonly number[],
  timestamps: readonly number[],
  swap: boolean,
  returnBool: boolean,
): Series[] {
  const comparison = isComparison(op);
  const out: Series[] = [];
  for (const series of vector) {
    const points = new StepPoints(timestamps);
    let step = 0;
    for (let k = 0; k < series.t.length; k++) {
      while (timestamps[step] < series.t[k]) step++;
      const sample = series.f[k];
      const [l, r] = swap ? [scalar[step], sample] : [sample, scalar[step]];
      let [value, keep] = elementBinop(op, l, r);
      // A comparison keeps the vector's value, whichever side it is on.
      if (comparison && swap) value = r;
      if (returnBool) {
        value = keep ? 1 : 0;
        keep = true;
      }
      if (keep) points.push(step, value);
    }
    const dropName = changesMetricSchema(op) || returnBool ? true : series.dropName;
    const result = points.series(series.metric, dropName);
    if (result !== undefined) out.push(result);
  }
  return out;
}

/** Join signature of a series under `on(...)` / `ignoring(...)` (ignoring also drops `__name__`). */
export function matchSignature(metric: Labels, matching: VectorMatching): string {
  if (matching.on) return metric.signature(matching.labels, true);
  return metric.signature([METRIC_NAME, ...matching.labels], false);
}

/** The labels a match group is known by (in errors, and for a filled-in sample). */
function matchedLabels(metric: Labels, matching: VectorMatching): Labels {
  return matching.on
    ? metric.keep(matching.labels)
    : metric.without([METRIC_NAME, ...matching.labels]);
}

export function vectorAnd(lhs: Vector, rhs: Vector, matching: VectorMatching): Vector {
  if (lhs.length === 0 || rhs.length === 0) return [];
  const right = new Set(rhs.map((s) => matchSignature(s.metric, matching)));
  return lhs.filter((s) => right.has(matchSignature(s.metric, matching)));
}

export function vectorOr(lhs: Vector, rhs: Vector, matching: VectorMatching): Vector {
  if (lhs.length === 0) return [...rhs];
  if (rhs.length === 0) return [...lhs];
  const left = new Set(lhs.map((s) => matchSignature(s.metric, matching)));
  return [...lhs, ...rhs.filter((s) => !left.has(matchSignature(s.metric, matching)))];
}

export function vectorUnless(lhs: Vector, rhs: Vector, matching: VectorMatching): Vector {
  if (lhs.length === 0 || rhs.length === 0) return [...lhs];
  const right = new Set(rhs.map((s) => matchSignature(s.metric, matching)));
  return lhs.filter((s) => !right.has(matchSignature(s.metric, matching)));
}

/** Arithmetic and comparison between two vectors with upstream's one-to-one / many-to-one rules. */
export function vectorBinop(
  op: BinaryOp,
  lhsIn: Vector,
  rhsIn: Vector,
  matching: VectorMatching,
  returnBool: boolean,
  delayedNameRemoval: boolean,
): Vector {
  const filling = matching.fillLeft !== undefined || matching.fillRight !== undefined;
  if (lhsIn.length === 0 && rhsIn.length === 0) return [];
  if ((lhsIn.length === 0 || rhsIn.length === 0) && !filling) return [];
  const oneToMany = matching.card === 'one-to-many';
  const [lhs, rhs] = oneToMany ? [rhsIn, lhsIn] : [lhsIn, rhsIn];
  const rightBySig = new Map<string, Sample>();
  for (const rs of rhs) {
    const sig = matchSignature(rs.metric, matching);
    const duplicate = rightBySig.get(sig);
    if (duplicate !== undefined) {
      const side = oneToMany ? 'left' : 'right';
      let [a, b] = [rs.metric.toString(), duplicate.metric.toString()];
      if (a > b) [a, b] = [b, a];
      throw new PromqlEvalError(
        `found duplicate series for the match group ${matchedLabels(rs.metric, matching).toString()} on the ${side} hand-side of the operation: [${a}, ${b}];many-to-many matching not allowed: matching labels must be unique on one side`,
      );
    }
    rightBySig.set(sig, rs);
  }
  const matchedOnce = new Set<string>();
  const matchedMany = new Map<string, Set<string>>();
  const out: Vector = [];
  const apply = (ls: Sample, rs: Sample, sig: string) => {
    const [fl, fr] = oneToMany ? [rs.f, ls.f] : [ls.f, rs.f];
    const [computed, keep] = elementBinop(op, fl, fr);
    const value = returnBool ? (keep ? 1 : 0) : computed;
    const metric = resultMetric(
      ls.metric,
      rs.metric,
      op,
      matching,
      returnBool && !delayedNameRemoval,
    );
    if (matching.card === 'one-to-one') {
      if (matchedOnce.has(sig)) {
        throw new PromqlEvalError(
          'multiple matches for labels: many-to-one matching must be explicit (group_left/group_right)',
        );
      }
      matchedOnce.add(sig);
    } else {
      let inserted = matchedMany.get(sig);
      if (inserted === undefined) {
        inserted = new Set();
        matchedMany.set(sig, inserted);
      }
      if (inserted.has(metric.key)) {
        throw new PromqlEvalError(
          'multiple matches for labels: grouping labels must ensure unique matches',
        );
      }
      inserted.add(metric.key);
    }
    if (!keep && !returnBool) return;
    out.push({ metric, f: value, t: ls.t, dropName: returnBool });
  };
  for (const ls of lhs) {
    const sig = matchSignature(ls.metric, matching);
    let rs = rightBySig.get(sig);
    if (rs === undefined) {
      if (matching.fillRight === undefined) continue;
      rs = {
        metric: matchedLabels(ls.metric, matching),
        f: matching.fillRight,
        t: ls.t,
        dropName: false,
      };
    }
    apply(ls, rs, sig);
  }
  if (matching.fillLeft !== undefined) {
    for (const rs of rhs) {
      const sig = matchSignature(rs.metric, matching);
      if (matchedOnce.has(sig) || (matchedMany.get(sig)?.size ?? 0) > 0) continue;
      const ls = {
        metric: matchedLabels(rs.metric, matching),
        f: matching.fillLeft,
        t: rs.t,
        dropName: false,
      };
      apply(ls, rs, sig);
    }
  }
  return out;
}

/**
 * The labels of a vector-vector result, as upstream's `resultMetric`: arithmetic drops the name
 * at once whatever the mode; so does a `bool` comparison unless name removal is delayed.
 */
export function resultMetric(
  lhs: Labels,
  rhs: Labels,
  op: BinaryOp,
  matching: VectorMatching,
  dropMetricName: boolean,
): Labels {
  let metric = lhs;
  if (dropMetricName || changesMetricSchema(op)) metric = withoutMetadata(metric);
  if (matching.card === 'one-to-one') {
    metric = matching.on ? metric.keep(matching.labels) : metric.without(matching.labels);
  }
  for (const name of matching.include) {
    metric = metric.with(name, rhs.get(name));
  }
  return metric;
}
