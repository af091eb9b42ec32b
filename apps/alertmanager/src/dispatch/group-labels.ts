import type { LabelSet } from '../labels';
import { formatLabelSet } from '../labels/label-set-format';
import type { RouteOptions } from './route-tree';

/**
 * The labels that identify an alert's group on a route: its values for the route's `group_by`
 * names (a name the alert lacks is left out), or all its labels with `group_by: ['...']`.
 */
export function groupLabelsFor(options: RouteOptions, labels: LabelSet): LabelSet {
  if (options.groupByAll) return { ...labels };
  const group: Record<string, string> = {};
  for (const name of options.groupBy) {
    if (name in labels) group[name] = labels[name];
  }
  return group;
}

/** Upstream's group key: `<route key>:<group labels>`, e.g. `{}/{team="db"}:{alertname="DB"}`. */
export function groupKeyOf(routeKey: string, groupLabels: LabelSet): string {
  return `${routeKey}:${formatLabelSet(groupLabels)}`;
}
