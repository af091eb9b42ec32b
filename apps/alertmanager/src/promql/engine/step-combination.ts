import { PromqlEvalError } from './errors';
import { DistinctLabelsets, SAME_LABELSET } from './name-removal';
import { checkDeadline, holdPoints, releasePoints, type QueryLimits } from './query-limits';
import { pointCount, sampleAt } from './series-runs';
import type { Sample, Series, Vector } from './values';

/** The steps an evaluator computes, and whether they are an instant query's one step. */
export interface Steps {
  readonly timestamps: readonly number[];
  readonly instant: boolean;
  /**
   * Whether an instant step's output with two series of one label set is an error there (names
   * are dropped at once); with delayed name removal it is decided when the query finishes.
   */
  readonly distinct: boolean;
}

/**
 * Calls `fn` at every step with the operands' vectors at that step (a scalar is a one-sample
 * vector, a string operand an empty one) and collects its output into series, releasing the
 * operands' points and holding the result's. Two outputs with the same labels at one step are
 * upstream's error.
 */
export function combineAtSteps(
  inputs: Series[][],
  steps: Steps,
  limits: QueryLimits,
  fn: (vectors: Vector[], ts: number) => Vector,
): Series[] {
  const cursors = inputs.map((list) => list.map(() => 0));
  if (steps.instant) {
    const vectors = inputs.map((list) => list.flatMap((s) => sampleAt(s, steps.timestamps[0])));
    const out = fn(vectors, steps.timestamps[0]);
    if (steps.distinct && out.length > 1) {
      const labelsets = new DistinctLabelsets();
      for (const sample of out) labelsets.add(sample.metric);
    }
    for (const list of inputs) releasePoints(limits, pointCount(list));
    holdPoints(limits, out.length);
    return out.map((s) => ({
      metric: s.metric,
      t: [steps.timestamps[0]],
      f: [s.f],
      dropName: s.dropName,
    }));
  }
  const byKey = new Map<string, Series & { last: number }>();
  const order: Series[] = [];
  // One sample object per input series, refilled at every step: `fn`'s output is read before the
  // next step, and no function keeps or changes its input samples, so a step allocates none.
  const samples: Sample[][] = inputs.map((list) =>
    list.map((s) => ({ metric: s.metric, f: NaN, t: 0, dropName: s.dropName })),
  );
  const vectors: Vector[] = inputs.map(() => []);
  for (const ts of steps.timestamps) {
    checkDeadline(limits);
    for (let i = 0; i < inputs.length; i++) {
      const list = inputs[i];
      const vector: Vector = (vectors[i] = []);
      for (let j = 0; j < list.length; j++) {
        const s = list[j];
        const at = cursors[i][j];
        if (at < s.t.length && s.t[at] === ts) {
          const sample = samples[i][j];
          sample.f = s.f[at];
          sample.t = ts;
          vector.push(sample);
          cursors[i][j] = at + 1;
        }
      }
    }
    for (const sample of fn(vectors, ts)) {
      let series = byKey.get(sample.metric.key);
      if (series === undefined) {
        series = { metric: sample.metric, t: [], f: [], dropName: sample.dropName, last: NaN };
        byKey.set(sample.metric.key, series);
        order.push(series);
      } else if (series.last === ts) {
        throw new PromqlEvalError(SAME_LABELSET);
      }
      series.last = ts;
      series.t.push(ts);
      series.f.push(sample.f);
    }
  }
  for (const list of inputs) releasePoints(limits, pointCount(list));
  holdPoints(limits, pointCount(order));
  return order.map(({ metric, t, f, dropName }) => ({ metric, t, f, dropName }));
}
