import type { Labels } from '../../tsdb/labels';
import { StepPoints } from './step-points';
import type { Series } from './values';

/** The aggregations whose state at a step is one number (and a compensation for `sum`). */
export type CellOp = 'sum' | 'count' | 'min' | 'max' | 'group';

export function isCellOp(op: string): op is CellOp {
  return op === 'sum' || op === 'count' || op === 'min' || op === 'max' || op === 'group';
}

/**
 * `sum`, `count`, `min`, `max` and `group`, folded series by series into one cell per group and
 * step. Each cell sees the series of its group in input order, as a step-by-step pass would, so
 * the sums (compensated as upstream's) come out bit for bit the same; what is saved is a points
 * array per series and a pass over every group at every step.
 */
export function aggregateCells(
  op: CellOp,
  input: readonly Series[],
  seriesGroup: readonly number[],
  groupMetrics: readonly Labels[],
  timestamps: readonly number[],
): Series[] {
  const steps = timestamps.length;
  const cells = groupMetrics.length * steps;
  const value = new Float64Array(cells);
  const compensation = op === 'sum' ? new Float64Array(cells) : undefined;
  // 0: no series yet; 1: seen; 2: seen, and a series in it drops its name.
  const state = new Uint8Array(cells);
  for (let si = 0; si < input.length; si++) {
    const series = input[si];
    const base = seriesGroup[si] * steps;
    const mark = series.dropName ? 2 : 1;
    const t = series.t;
    const f = series.f;
    let step = 0;
    for (let k = 0; k < t.length; k++) {
      while (step < steps && timestamps[step] < t[k]) step++;
      if (step === steps) break;
      if (timestamps[step] !== t[k]) continue;
      const cell = base + step;
      const v = f[k];
      if (state[cell] === 0) {
        state[cell] = mark;
        value[cell] = op === 'count' || op === 'group' ? 1 : v;
        continue;
      }
      if (mark === 2) state[cell] = 2;
      switch (op) {
        case 'sum': {
          const sum = value[cell];
          const next = sum + v;
          if (!Number.isFinite(next) && !Number.isNaN(next)) {
            (compensation as Float64Array)[cell] = 0;
          } else if (Math.abs(sum) >= Math.abs(v)) {
            (compensation as Float64Array)[cell] += sum - next + v;
          } else {
            (compensation as Float64Array)[cell] += v - next + sum;
          }
          value[cell] = next;
          break;
        }
        case 'count':
          value[cell]++;
          break;
        case 'max':
          if (value[cell] < v || Number.isNaN(value[cell])) value[cell] = v;
          break;
        case 'min':
          if (value[cell] > v || Number.isNaN(value[cell])) value[cell] = v;
          break;
        case 'group':
          break;
      }
    }
  }
  const output: Series[] = [];
  for (let g = 0; g < groupMetrics.length; g++) {
    const points = new StepPoints(timestamps);
    const base = g * steps;
    let dropName = false;
    for (let step = 0; step < steps; step++) {
      const cell = base + step;
      if (state[cell] === 0) continue;
      points.push(
        step,
        compensation === undefined ? value[cell] : value[cell] + compensation[cell],
      );
      dropName = state[cell] === 2;
    }
    const out = points.series(groupMetrics[g], dropName);
    if (out !== undefined) output.push(out);
  }
  return output;
}
