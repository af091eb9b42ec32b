import { routeMatchers, type Route } from '../config';
import { formatMatchers, matchesLabels, type LabelSet, type Matcher } from '../labels';

/** The options a matched route gives its aggregation groups. */
export interface RouteOptions {
  receiver: string;
  /** Label names to group by; empty with `groupByAll` means "group by every label". */
  groupBy: readonly string[];
  /** True for `group_by: ['...']`. */
  groupByAll: boolean;
  /** Milliseconds. */
  groupWait: number;
  /** Milliseconds. */
  groupInterval: number;
  /** Milliseconds. */
  repeatInterval: number;
  /** Interval names muting this route (not inherited from the parent, as upstream). */
  muteTimeIntervals: readonly string[];
  /** Interval names outside which this route does not notify (not inherited). */
  activeTimeIntervals: readonly string[];
}

/**
 * One node of the routing tree, built once per config from `config.route`. Its `key` is the
 * first half of every group key it creates; its `id` also tells siblings with equal matchers
 * apart.
 */
export interface RouteNode {
  readonly parent: RouteNode | undefined;
  readonly options: RouteOptions;
  /** All matchers (deprecated `match`/`match_re` included), sorted as upstream. */
  readonly matchers: readonly Matcher[];
  readonly continue: boolean;
  /** Upstream's `Route.Key()`: the matcher strings from the root down, joined by `/`. */
  readonly key: string;
  /** Upstream's `Route.ID()`: the key plus `/<position among siblings>` (root: the key). */
  readonly id: string;
  readonly routes: readonly RouteNode[];
  /** The route as configured, for tools that print the tree (`config routes`). */
  readonly config: Route;
}

/** Builds the routing tree; the config loader has already applied inheritance and defaults. */
export function buildRouteTree(route: Route): RouteNode {
  return buildNode(route, undefined, 0);
}

function buildNode(route: Route, parent: RouteNode | undefined, index: number): RouteNode {
  const matchers = routeMatchers(route);
  const own = formatMatchers(matchers);
  const key = parent ? `${parent.key}/${own}` : own;
  // Upstream appends the node's own position among its siblings; the root has none.
  const id = parent ? `${key}/${index}` : key;
  const groupByAll = route.group_by.includes('...');
  const node: RouteNode = {
    parent,
    matchers,
    continue: route.continue,
    key,
    id,
    options: {
      receiver: route.receiver,
      groupBy: groupByAll ? [] : [...route.group_by],
      groupByAll,
      groupWait: route.group_wait,
      groupInterval: route.group_interval,
      repeatInterval: route.repeat_interval,
      muteTimeIntervals: [...route.mute_time_intervals],
      activeTimeIntervals: [...route.active_time_intervals],
    },
    routes: [],
    config: route,
  };
  (node.routes as RouteNode[]).push(...route.routes.map((child, i) => buildNode(child, node, i)));
  return node;
}

/**
 * The routes an alert with these labels goes to, depth first: a node whose matchers fail
 * yields nothing; otherwise its children are tried in order, stopping after the first that
 * matched unless that child has `continue`; when no child matched, the node itself matches.
 */
export function matchRoutes(node: RouteNode, labels: LabelSet): RouteNode[] {
  if (!matchesLabels(node.matchers, labels)) return [];
  const all: RouteNode[] = [];
  for (const child of node.routes) {
    const matched = matchRoutes(child, labels);
    all.push(...matched);
    if (matched.length > 0 && !child.continue) break;
  }
  return all.length > 0 ? all : [node];
}

/** The receivers of the routes an alert matches, in match order, duplicates kept (API view). */
export function receiversFor(root: RouteNode, labels: LabelSet): string[] {
  return matchRoutes(root, labels).map((node) => node.options.receiver);
}

/** Visits every node of the tree, parents before children. */
export function walkRoutes(node: RouteNode, visit: (node: RouteNode) => void): void {
  visit(node);
  for (const child of node.routes) walkRoutes(child, visit);
}
