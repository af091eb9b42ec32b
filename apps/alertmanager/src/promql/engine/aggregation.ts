import type { AggregateExpr } from '../ast';
import { Labels, METRIC_NAME } from '../../tsdb/labels';
import { PromqlEvalError } from './errors';
import { formatFloatPlain, kahanInc, quantile } from './float-math';
import { isValidLabelName } from './label-names';
import type { Sample, Series } from './values';

/** The steps an aggregation runs over, and its parameter (k, φ, ratio, label) at each. */
export interface AggregationSteps {
  readonly timestamps: readonly number[];
  readonly params: readonly number[] | undefined;
  readonly label: string | undefined;
  /** The label as written in the query, for messages. */
  readonly labelText?: string;
}

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

/** Key of the group a series falls in. */
function groupKey(metric: Labels, expr: AggregateExpr, grouping: readonly string[]): string {
  if (expr.without) return metric.signature([...grouping, METRIC_NAME], false);
  if (grouping.length === 0) return '';
  // One `by` label (`by (le)`, `by (job)`): its value is the key, a missing label being empty.
  if (grouping.length === 1) return metric.get(grouping[0]);
  return metric.signature(grouping, true);
}

/** Labels of the group a series falls in. */
function groupLabels(metric: Labels, expr: AggregateExpr, grouping: readonly string[]): Labels {
  if (expr.without) return metric.without([...grouping, METRIC_NAME]);
  return grouping.length === 0 ? Labels.EMPTY : metric.keep(grouping);
}

/** Key and labels of the group a series falls in. */
function groupOf(
  metric: Labels,
  expr: AggregateExpr,
  grouping: readonly string[],
): [string, Labels] {
  return [groupKey(metric, expr, grouping), groupLabels(metric, expr, grouping)];
}

const NO_POINT: readonly undefined[] = [undefined];

/** Points of a series at each step, by step index (undefined where it has none). */
function pointsByStep(
  series: Series,
  timestamps: readonly number[],
): readonly (number | undefined)[] {
  // An instant query's one step: the series has its point there or none.
  if (timestamps.length === 1) return series.t[0] === timestamps[0] ? series.f : NO_POINT;
  const out: (number | undefined)[] = new Array(timestamps.length);
  let j = 0;
  for (let i = 0; i < timestamps.length && j < series.t.length; i++) {
    if (series.t[j] === timestamps[i]) out[i] = series.f[j++];
  }
  return out;
}

/** `sum`, `avg`, `count`, `min`, `max`, `group`, `stddev`, `stdvar`, `quantile`, as upstream. */
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
  const grouping = [...expr.grouping].sort();
  const groupIndex = new Map<string, number>();
  const seriesGroup: number[] = [];
  const output: Series[] = [];
  for (const series of input) {
    const key = groupKey(series.metric, expr, grouping);
    let index = groupIndex.get(key);
    if (index === undefined) {
      index = output.length;
      groupIndex.set(key, index);
      output.push({
        metric: groupLabels(series.metric, expr, grouping),
        t: [],
        f: [],
        dropName: false,
      });
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
    case 'group':
      group.value = 1;
      break;
  }
}

function accumulate(group: Group, op: AggregateExpr['op'], f: number): void {
  switch (op) {
    case 'sum':
      [group.value, group.kahanC] = kahanInc(f, group.value, group.kahanC);
      break;
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
    case 'max':
      if (group.value < f || Number.isNaN(group.value)) group.value = f;
      break;
    case 'min':
      if (group.value > f || Number.isNaN(group.value)) group.value = f;
      break;
    case 'count':
      group.count++;
      break;
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
    case 'group':
      break;
  }
}

function finish(group: Group, op: AggregateExpr['op'], param: number): number {
  switch (op) {
    case 'avg':
      if (group.incremental) return group.mean + group.kahanC;
      return group.value / group.count + group.kahanC / group.count;
    case 'count':
      return group.count;
    case 'stdvar':
      return group.value / group.count;
    case 'stddev':
      return Math.sqrt(group.value / group.count);
    case 'quantile':
      return quantile(param, group.values);
    case 'sum':
      return group.value + group.kahanC;
    default:
      return group.value;
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

/** A binary heap driven exactly as Go's container/heap, so ties resolve as upstream's do. */
class GoHeap {
  readonly items: Sample[] = [];
  constructor(private readonly less: (a: Sample, b: Sample) => boolean) {}

  push(item: Sample): void {
    this.items.push(item);
    this.up(this.items.length - 1);
  }

  replaceTop(item: Sample): void {
    this.items[0] = item;
    if (!this.down(0, this.items.length)) this.up(0);
  }

  private up(j: number): void {
    for (;;) {
      const i = Math.floor((j - 1) / 2);
      if (i === j || j <= 0 || !this.less(this.items[j], this.items[i])) break;
      [this.items[i], this.items[j]] = [this.items[j], this.items[i]];
      j = i;
    }
  }

  private down(i0: number, n: number): boolean {
    let i = i0;
    for (;;) {
      const j1 = 2 * i + 1;
      if (j1 >= n) break;
      let j = j1;
      const j2 = j1 + 1;
      if (j2 < n && this.less(this.items[j2], this.items[j1])) j = j2;
      if (!this.less(this.items[j], this.items[i])) break;
      [this.items[i], this.items[j]] = [this.items[j], this.items[i]];
      i = j;
    }
    return i > i0;
  }
}

/** Ascending by value with NaN smallest (upstream's `vectorByValueHeap`). */
const byValue = (a: Sample, b: Sample) => Number.isNaN(a.f) || a.f < b.f;
/** Descending by value with NaN smallest (`vectorByReverseValueHeap`). */
const byReverseValue = (a: Sample, b: Sample) => Number.isNaN(a.f) || a.f > b.f;

const MAX_INT64 = 9223372036854775807;

/** `topk`, `bottomk`, `limitk`: the samples kept per group at each step, with their own labels. */
function selectK(expr: AggregateExpr, input: Series[], steps: AggregationSteps): Series[] {
  const params = steps.params ?? [];
  const op = expr.op;
  let max = -Number.MAX_VALUE;
  let min = Number.MAX_VALUE;
  let anyNaN = false;
  for (const p of params) {
    if (Number.isNaN(p)) anyNaN = true;
    max = Number.isNaN(p) ? NaN : Math.max(max, p);
    min = Number.isNaN(p) ? NaN : Math.min(min, p);
  }
  if (op === 'limit_ratio') {
    if (max === 0 && min === 0) return [];
    if (anyNaN) throw new PromqlEvalError('Ratio value is NaN');
  } else {
    if (max < 1) return [];
    if (anyNaN) throw new PromqlEvalError('Parameter value is NaN');
    if (min <= -MAX_INT64) throw new PromqlEvalError(`Scalar value ${min} underflows int64`);
    if (max >= MAX_INT64) throw new PromqlEvalError(`Scalar value ${max} overflows int64`);
  }
  const grouping = [...expr.grouping].sort();
  const seriesGroup = new Map<Series, string>();
  for (const series of input) seriesGroup.set(series, groupKey(series.metric, expr, grouping));
  const points = input.map((s) => pointsByStep(s, steps.timestamps));
  const output = new Map<string, Series>();
  const order: Series[] = [];
  const add = (sample: Sample, ts: number) => {
    let series = output.get(sample.metric.key);
    if (series === undefined) {
      series = { metric: sample.metric, t: [], f: [], dropName: sample.dropName };
      output.set(sample.metric.key, series);
      order.push(series);
    }
    series.t.push(ts);
    series.f.push(sample.f);
  };
  steps.timestamps.forEach((ts, step) => {
    if (op === 'limit_ratio') {
      const ratio = Math.max(-1, Math.min(1, params[step]));
      if (params[step] === 0) return;
      input.forEach((series, si) => {
        const f = points[si][step];
        if (f === undefined || !inRatio(series.metric, ratio)) return;
        add({ metric: series.metric, f, t: ts, dropName: series.dropName }, ts);
      });
      return;
    }
    const k = Math.min(Math.trunc(params[step]), input.length);
    if (k < 1) return;
    const heaps = new Map<string, GoHeap>();
    const less = op === 'bottomk' ? byReverseValue : byValue;
    input.forEach((series, si) => {
      const f = points[si][step];
      if (f === undefined) return;
      const sample: Sample = { metric: series.metric, f, t: ts, dropName: series.dropName };
      const key = seriesGroup.get(series) as string;
      let heap = heaps.get(key);
      if (heap === undefined) {
        heap = new GoHeap(less);
        heaps.set(key, heap);
      }
      const top = heap.items[0];
      if (heap.items.length < k) {
        if (op === 'limitk') heap.items.push(sample);
        else heap.push(sample);
      } else if (op === 'topk' && (top.f < f || (Number.isNaN(top.f) && !Number.isNaN(f)))) {
        heap.replaceTop(sample);
      } else if (op === 'bottomk' && (top.f > f || (Number.isNaN(top.f) && !Number.isNaN(f)))) {
        heap.replaceTop(sample);
      }
    });
    for (const heap of heaps.values()) {
      const items = [...heap.items];
      if (op === 'topk') items.sort((a, b) => (byValue(b, a) ? -1 : byValue(a, b) ? 1 : 0));
      if (op === 'bottomk')
        items.sort((a, b) => (byReverseValue(b, a) ? -1 : byReverseValue(a, b) ? 1 : 0));
      for (const sample of items) add(sample, ts);
    }
  });
  return order;
}

/** 2^64 - 1 as a float, which label hashes are divided by. */
const MAX_UINT64 = 18446744073709551615;

/**
 * Whether a series is in the `limit_ratio` sample: its label hash, as a fraction of the largest
 * hash, is below the ratio (or, for a negative ratio, in the complementary top part).
 */
function inRatio(metric: Labels, ratio: number): boolean {
  const offset = Number(metric.hash()) / MAX_UINT64;
  return ratio >= 0 ? offset < ratio : offset >= 1 + ratio;
}
