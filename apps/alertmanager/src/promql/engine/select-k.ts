import type { AggregateExpr } from '../ast';
import type { Labels } from '../../tsdb/labels';
import { groupKey, pointsByStep, type AggregationSteps } from './aggregation-groups';
import { PromqlEvalError } from './errors';
import type { Sample, Series } from './values';

/** Ascending by value with NaN smallest (upstream's `vectorByValueHeap`). */
const byValue = (a: Sample, b: Sample) => Number.isNaN(a.f) || a.f < b.f;
/** Descending by value with NaN smallest (`vectorByReverseValueHeap`). */
const byReverseValue = (a: Sample, b: Sample) => Number.isNaN(a.f) || a.f > b.f;

const MAX_INT64 = 9223372036854775807;

/** `topk`, `bottomk`, `limitk`: the samples kept per group at each step, with their own labels. */
export function selectK(expr: AggregateExpr, input: Series[], steps: AggregationSteps): Series[] {
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
