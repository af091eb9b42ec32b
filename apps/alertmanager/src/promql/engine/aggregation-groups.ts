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

/** A series' group under one grouping: its key and labels. */
interface GroupOfSeries {
  readonly key: string;
  readonly labels: Labels;
}

/** Groupings remembered at once, most recently used last. */
const REMEMBERED_GROUPINGS = 32;
const remembered = new Map<string, WeakMap<Labels, GroupOfSeries>>();

/**
 * Keys and labels of the groups series fall in under one grouping, remembered per label set for
 * the groupings used lately: rules and dashboards aggregate the same series by the same labels
 * again and again, and stored label sets keep their identity from query to query. Only the
 * groupings last used are remembered, so trying many groupings costs no lasting memory.
 */
export function groupsOf(
  expr: AggregateExpr,
  grouping: readonly string[],
): (metric: Labels) => GroupOfSeries {
  const name = `${expr.without ? 'without' : 'by'}\xff${grouping.join('\xff')}`;
  let byLabels = remembered.get(name);
  if (byLabels === undefined) {
    if (remembered.size >= REMEMBERED_GROUPINGS) {
      remembered.delete(remembered.keys().next().value as string);
    }
    byLabels = new WeakMap();
  } else {
    remembered.delete(name);
  }
  remembered.set(name, byLabels);
  const memo = byLabels;
  return (metric) => {
    let found = memo.get(metric);
    if (found === undefined) {
      found = {
        key: groupKey(metric, expr, grouping),
        labels: groupLabels(metric, expr, grouping),
      };
      memo.set(metric, found);
    }
    return found;
  };
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
