import type { AggregateExpr, AggregationOp } from '../ast';
import type { Labels } from '../../tsdb/labels';
import { PromqlEvalError } from './errors';
import { formatFloatPlain, goFormatG, kahanInc, quantile } from './float-math';
import { isValidLabelName } from './label-names';
import { groupOf, groupsOf, pointsByStep, type AggregationSteps } from './aggregation-groups';
import { selectK } from './select-k';
import type { Series } from './values';

export type { AggregationSteps } from './aggregation-groups';

interface Group {
  seen: boolean;
  value: number;
  mean: number;
  count: number;
  kahanC: number;
  incremental: boolean;
  values: number[];
  dropName: boolean;
}

/**
 * `avg`, `stddev`, `stdvar`, `quantile`, `count_values`, `topk`, `bottomk`, `limitk` and
 * `limit_ratio`, as upstream; `sum`, `count`, `min`, `max` and `group` are folded series by
 * series in `cell-aggregation.ts`.
 */
export function aggregate(expr: AggregateExpr, input: Series[], steps: AggregationSteps): Series[] {
  if (expr.op === 'count_values') return countValues(expr, input, steps);
  if (
    expr.op === 'topk' ||
    expr.op === 'bottomk' ||
    expr.op === 'limitk' ||
    expr.op === 'limit_ratio'
  ) {
    return selectK(expr, input, steps);
  }
  const groupOf = groupsOf(expr, [...expr.grouping].sort());
  const groupIndex = new Map<string, number>();
  const seriesGroup: number[] = [];
  const output: Series[] = [];
  for (const series of input) {
    const { key, labels } = groupOf(series.metric);
    let index = groupIndex.get(key);
    if (index === undefined) {
      index = output.length;
      groupIndex.set(key, index);
      output.push({ metric: labels, t: [], f: [], dropName: false });
    }
    seriesGroup.push(index);
  }
  const points = input.map((s) => pointsByStep(s, steps.timestamps));
  const groups: Group[] = output.map(() => newGroup());
  steps.timestamps.forEach((ts, step) => {
    for (const g of groups) g.seen = false;
    for (let si = 0; si < input.length; si++) {
      const f = points[si][step];
      if (f === undefined) continue;
      const group = groups[seriesGroup[si]];
      if (!group.seen) {
        startGroup(group, expr.op, f, input[si].dropName);
        continue;
      }
      if (input[si].dropName) group.dropName = true;
      accumulate(group, expr.op, f);
    }
    groups.forEach((group, index) => {
      if (!group.seen) return;
      const out = output[index];
      out.t.push(ts);
      out.f.push(finish(group, expr.op, steps.params?.[step] ?? NaN));
      out.dropName = group.dropName;
    });
  });
  return output.filter((s) => s.t.length > 0);
}

function newGroup(): Group {
  return {
    seen: false,
    value: 0,
    mean: 0,
    count: 0,
    kahanC: 0,
    incremental: false,
    values: [],
    dropName: false,
  };
}

function startGroup(group: Group, op: AggregateExpr['op'], f: number, dropName: boolean): void {
  group.seen = true;
  group.value = f;
  group.mean = f;
  group.count = 1;
  group.kahanC = 0;
  group.incremental = false;
  group.dropName = dropName;
  group.values = [];
  switch (op) {
    case 'stddev':
    case 'stdvar':
      group.value = Number.isFinite(f) ? 0 : NaN;
      break;
    case 'quantile':
      group.values = [f];
      break;
  }
}

function accumulate(group: Group, op: AggregateExpr['op'], f: number): void {
  switch (op) {
    case 'avg': {
      group.count++;
      if (!group.incremental) {
        const [next, nextC] = kahanInc(f, group.value, group.kahanC);
        if (Number.isFinite(next) || Number.isNaN(next)) {
          group.value = next;
          group.kahanC = nextC;
          break;
        }
        group.incremental = true;
        group.mean = group.value / (group.count - 1);
        group.kahanC /= group.count - 1;
      }
      const q = (group.count - 1) / group.count;
      [group.mean, group.kahanC] = kahanInc(f / group.count, q * group.mean, q * group.kahanC);
      break;
    }
    case 'stddev':
    case 'stdvar': {
      group.count++;
      const delta = f - group.mean;
      group.mean += delta / group.count;
      group.value += delta * (f - group.mean);
      break;
    }
    case 'quantile':
      group.values.push(f);
      break;
  }
}

function finish(group: Group, op: AggregateExpr['op'], param: number): number {
  switch (op) {
    case 'avg':
      if (group.incremental) return group.mean + group.kahanC;
      return group.value / group.count + group.kahanC / group.count;
    case 'stdvar':
      return group.value / group.count;
    case 'stddev':
      return Math.sqrt(group.value / group.count);
    default:
      return quantile(param, group.values);
  }
}

/** `count_values("label", v)`: how many series have each value, the value as a label. */
function countValues(expr: AggregateExpr, input: Series[], steps: AggregationSteps): Series[] {
  const label = steps.label as string;
  if (!isValidLabelName(label)) {
    throw new PromqlEvalError(`invalid label name ${steps.labelText ?? JSON.stringify(label)}`);
  }
  const grouping = expr.without ? [...expr.grouping].sort() : [...expr.grouping, label].sort();
  const points = input.map((s) => pointsByStep(s, steps.timestamps));
  const output = new Map<string, Series>();
  const order: Series[] = [];
  steps.timestamps.forEach((ts, step) => {
    const counts = new Map<string, { labels: Labels; count: number }>();
    input.forEach((series, si) => {
      const f = points[si][step];
      if (f === undefined) return;
      const metric = series.metric.with(label, formatFloatPlain(f));
      const [key, labels] = groupOf(metric, expr, grouping);
      const entry = counts.get(key);
      if (entry === undefined) counts.set(key, { labels, count: 1 });
      else entry.count++;
    });
    for (const { labels, count } of counts.values()) {
      let series = output.get(labels.key);
      if (series === undefined) {
        series = { metric: labels, t: [], f: [], dropName: false };
        output.set(labels.key, series);
        order.push(series);
      }
      series.t.push(ts);
      series.f.push(count);
    }
  });
  return order;
}

/** Upstream's warnings for a `quantile` φ or a `limit_ratio` ratio out of range. */
export function paramWarnings(op: AggregationOp, params: readonly number[]): string[] {
  const warnings: string[] = [];
  // Go's math.Max and math.Min: NaN wins.
  let max = -Number.MAX_VALUE;
  let min = Number.MAX_VALUE;
  for (const p of params) {
    max = Number.isNaN(p) || Number.isNaN(max) ? NaN : Math.max(max, p);
    min = Number.isNaN(p) || Number.isNaN(min) ? NaN : Math.min(min, p);
  }
  const warn = (message: string) => warnings.push(message);
  if (op === 'quantile') {
    if (params.some(Number.isNaN)) warn('quantile value should be between 0 and 1, got NaN');
    if (max > 1) warn(`quantile value should be between 0 and 1, got ${goFormatG(max)}`);
    if (min < 0) warn(`quantile value should be between 0 and 1, got ${goFormatG(min)}`);
  }
  if (op === 'limit_ratio' && !params.some(Number.isNaN)) {
    if (max > 1)
      warn(`ratio value should be between -1 and 1, got ${goFormatG(max)}, capping to 1`);
    if (min < -1)
      warn(`ratio value should be between -1 and 1, got ${goFormatG(min)}, capping to -1`);
  }
  return warnings;
}
