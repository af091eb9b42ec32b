import type { BinaryOp, VectorMatching } from '../ast';
import { elementBinop, matchSignature, resultMetric } from './binary-operations';
import { StepPoints } from './step-points';
import type { Series } from './values';

/**
 * Arithmetic or a comparison between two vectors matched one to one, series by series: when
 * every match signature names at most one series on each side, each pair of series meets at the
 * steps both have a point, with the result's labels worked out once per pair rather than at every
 * step. Undefined when a signature names several series on a side (or the matching fills in
 * missing series): those go step by step, where upstream's errors are decided.
 */
export function joinSeriesOneToOne(
  op: BinaryOp,
  lhs: readonly Series[],
  rhs: readonly Series[],
  matching: VectorMatching,
  returnBool: boolean,
  timestamps: readonly number[],
  delayedNameRemoval: boolean,
): Series[] | undefined {
  if (matching.card !== 'one-to-one') return undefined;
  if (matching.fillLeft !== undefined || matching.fillRight !== undefined) return undefined;
  const right = new Map<string, Series>();
  for (const series of rhs) {
    const signature = matchSignature(series.metric, matching);
    if (right.has(signature)) return undefined;
    right.set(signature, series);
  }
  const pairs: [Series, Series][] = [];
  const leftSignatures = new Set<string>();
  for (const series of lhs) {
    const signature = matchSignature(series.metric, matching);
    if (leftSignatures.has(signature)) return undefined;
    leftSignatures.add(signature);
    const match = right.get(signature);
    if (match !== undefined) pairs.push([series, match]);
  }
  const out: Series[] = [];
  for (const [l, r] of pairs) {
    const points = new StepPoints(timestamps);
    let step = 0;
    let j = 0;
    for (let i = 0; i < l.t.length; i++) {
      const ts = l.t[i];
      while (j < r.t.length && r.t[j] < ts) j++;
      if (j === r.t.length) break;
      if (r.t[j] !== ts) continue;
      const [computed, keep] = elementBinop(op, l.f[i], r.f[j]);
      if (!keep && !returnBool) continue;
      while (timestamps[step] < ts) step++;
      points.push(step, returnBool ? (keep ? 1 : 0) : computed);
    }
    const dropNow = returnBool && !delayedNameRemoval;
    const metric = resultMetric(l.metric, r.metric, op, matching, dropNow);
    const series = points.series(metric, returnBool);
    if (series !== undefined) out.push(series);
  }
  return out;
}
