import type { AggregateExpr } from '../ast';
import type { Labels } from '../../tsdb/labels';
import { groupsOf } from './aggregation-groups';
import { StepPoints } from './step-points';
import type { Series } from './values';

/** The aggregations whose state at a step is one number (and a compensation for `sum`). */
export type CellOp = 'sum' | 'count' | 'min' | 'max' | 'group';

export function isCellOp(op: string): op is CellOp {
  return op === 'sum' || op === 'count' || op === 'min' || op === 'max' || op === 'group';
}

/** One output group: a cell per step. */
interface CellGroup {
  readonly metric: Labels;
  readonly value: Float64Array;
  readonly compensation: Float64Array | undefined;
  /** 0: no series yet; 1: seen; 2: seen, and a series in it drops its name. */
  readonly state: Uint8Array;
}

/**
 * `sum`, `count`, `min`, `max` and `group`, folded series by series into one cell per group and
 * step. Each cell sees the series of its group in input order, as a step-by-step pass would, so
 * the sums (compensated as upstream's) come out bit for bit the same; what is saved is a points
 * array per series and a pass over every group at every step. Series can be added as they are
 * computed, so that a query's input series need not all be held at once.
 */
export class CellAggregator {
  private readonly groups: CellGroup[] = [];
  private readonly byKey = new Map<string, CellGroup>();
  private readonly groupOfSeries: (metric: Labels) => { key: string; labels: Labels };
  /** Cells are cut from slabs of several groups: one typed array each would be slow to make. */
  private slab: { value: Float64Array; compensation?: Float64Array; state: Uint8Array } | undefined;
  private slabGroups = 0;
  private slabUsed = 0;

  constructor(
    private readonly op: CellOp,
    expr: AggregateExpr,
    private readonly timestamps: readonly number[],
  ) {
    this.groupOfSeries = groupsOf(expr, [...expr.grouping].sort());
  }

  add(series: Series): void {
    const group = this.groupOf(series.metric);
    const { timestamps, op } = this;
    const { value, compensation, state } = group;
    const steps = timestamps.length;
    const mark = series.dropName ? 2 : 1;
    const t = series.t;
    const f = series.f;
    let step = 0;
    for (let k = 0; k < t.length; k++) {
      while (step < steps && timestamps[step] < t[k]) step++;
      if (step === steps) break;
      if (timestamps[step] !== t[k]) continue;
      const v = f[k];
      if (state[step] === 0) {
        state[step] = mark;
        value[step] = op === 'count' || op === 'group' ? 1 : v;
        continue;
      }
      if (mark === 2) state[step] = 2;
      switch (op) {
        case 'sum': {
          const sum = value[step];
          const next = sum + v;
          const c = compensation as Float64Array;
          if (!Number.isFinite(next) && !Number.isNaN(next)) c[step] = 0;
          else if (Math.abs(sum) >= Math.abs(v)) c[step] += sum - next + v;
          else c[step] += v - next + sum;
          value[step] = next;
          break;
        }
        case 'count':
          value[step]++;
          break;
        case 'max':
          if (value[step] < v || Number.isNaN(value[step])) value[step] = v;
          break;
        case 'min':
          if (value[step] > v || Number.isNaN(value[step])) value[step] = v;
          break;
        case 'group':
          break;
      }
    }
  }

  /** The groups' series, in the order their first series came; groups with no point left out. */
  finish(): Series[] {
    const output: Series[] = [];
    const steps = this.timestamps.length;
    for (const { metric, value, compensation, state } of this.groups) {
      const points = new StepPoints(this.timestamps);
      let dropName = false;
      for (let step = 0; step < steps; step++) {
        if (state[step] === 0) continue;
        points.push(
          step,
          compensation === undefined ? value[step] : value[step] + compensation[step],
        );
        dropName = state[step] === 2;
      }
      const out = points.series(metric, dropName);
      if (out !== undefined) output.push(out);
    }
    return output;
  }

  private groupOf(metric: Labels): CellGroup {
    const { key, labels } = this.groupOfSeries(metric);
    let group = this.byKey.get(key);
    if (group === undefined) {
      const steps = this.timestamps.length;
      if (this.slab === undefined || this.slabUsed === this.slabGroups) {
        // Slabs double, from one group (a `sum` without `by` has just one) to 256.
        this.slabGroups = Math.min(Math.max(1, this.slabGroups * 2), 256);
        const cells = this.slabGroups * steps;
        this.slab = {
          value: new Float64Array(cells),
          compensation: this.op === 'sum' ? new Float64Array(cells) : undefined,
          state: new Uint8Array(cells),
        };
        this.slabUsed = 0;
      }
      const from = this.slabUsed++ * steps;
      const { value, compensation, state } = this.slab;
      group = {
        metric: labels,
        value: value.subarray(from, from + steps),
        compensation: compensation?.subarray(from, from + steps),
        state: state.subarray(from, from + steps),
      };
      this.byKey.set(key, group);
      this.groups.push(group);
    }
    return group;
  }
}
