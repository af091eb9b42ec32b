import type { Matcher } from '../../labels';

/**
 * One node of the routing tree, with inheritance already applied: `receiver`, `group_by` and
 * the three timers are filled in from the parent when the node does not set them.
 */
export interface Route {
  receiver: string;
  /** Label names to group by; `['...']` groups by all labels. */
  group_by: string[];
  continue: boolean;
  /** Deprecated equality matchers, kept as written; see {@link routeMatchers}. */
  match: Record<string, string>;
  /** Deprecated regex matchers (RE2, anchored), kept as written. */
  match_re: Record<string, string>;
  matchers: Matcher[];
  /** Milliseconds. */
  group_wait: number;
  /** Milliseconds, never zero. */
  group_interval: number;
  /** Milliseconds, never zero. */
  repeat_interval: number;
  /** Not inherited: each route is muted only by its own intervals. */
  mute_time_intervals: string[];
  /** Not inherited. */
  active_time_intervals: string[];
  /** Route labels (0.34), merged from the parent; values may be templates. */
  labels: Record<string, string>;
  routes: Route[];
}
