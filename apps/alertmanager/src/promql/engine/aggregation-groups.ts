import type { AggregateExpr } from '../ast';
import { Labels, METRIC_NAME } from '../../tsdb/labels';
import type { Series } from './values';

// What every aggregation shares: the steps it runs over, the group a series falls in, and each
// series' points by step.

/** The steps an aggregation runs over, and its parameter (k, φ, ratio, label) at each. */
export interface AggregationSteps {
  readonly timestamps: readonly number[];
  readonly params: readonly number[] | undefined;
  readonly label: string | undefined;
  /** The label as written in the query, for messages. */
  readonly labelText?: string;
}

/** Key of the group a series falls in. */
export function groupKey(metric: Labels, expr: AggregateExpr, grouping: readonly string[]): string {
  if (expr.without) return metric.signature([...grouping, METRIC_NAME], false);
  if (grouping.length === 0) return '';
  // One `by` label (`by (le)`, `by (job)`): its value is the key, a missing label being empty.
  if (grouping.length === 1) return metric.get(grouping[0]);
  return metric.signature(grouping, true);
}

/** Labels of the group a series falls in. */
export function groupLabels(
  metric: Labels,
  expr: AggregateExpr,
  grouping: readonly string[],
): Labels {
  if (expr.without) return metric.without([...grouping, METRIC_NAME]);
  return grouping.length === 0 ? Labels.EMPTY : metric.keep(grouping);
}

/** Key and labels of the group a series falls in. */
export function groupOf(
  metric: Labels,
  expr: AggregateExpr,
  grouping: readonly string[],
): [string, Labels] {
  return [groupKey(metric, expr, grouping), groupLabels(metric, expr, grouping)];
}

const NO_POINT: readonly undefined[] = [undefined];

/** Points of a series at each step, by step index (undefined where it has none). */
export function pointsByStep(
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
