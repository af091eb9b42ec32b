import type { Alert } from '../alerts/alert.model';
import type { LabelSet } from '../labels';

/** One aggregation group, as the dispatcher reports it (its `AlertGroupSnapshot` fits). */
export interface AlertGroupView {
  labels: LabelSet;
  receiver: string;
  /** The route's own labels (HEAD's `routeLabels`); empty when absent. */
  routeLabels?: LabelSet;
  alerts: readonly Alert[];
}

/**
 * What the alerts API needs from routing: the receivers an alert goes to (in route order, as
 * `receiversFor(root, labels)`) and the current aggregation groups. Read on every request, so a
 * reload that rebuilds the dispatcher is seen at once.
 */
export interface AlertRouting {
  receiversFor(labels: LabelSet): string[];
  groups(): Iterable<AlertGroupView>;
  /** The routing tree of the running configuration, for people to read; undefined before one. */
  tree(): RouteDescription | undefined;
  /** The ids of the routes an alert with these labels goes to, in match order. */
  routesFor(labels: LabelSet): string[];
}

/** One route as the UI and `GET /api/v2/routes` show it, durations in Go's notation. */
export interface RouteDescription {
  /** Upstream's route ID. */
  id: string;
  receiver: string;
  /** Every matcher, deprecated `match`/`match_re` included, as matcher strings. */
  matchers: string[];
  continue: boolean;
  /** `['...']` for grouping by every label. */
  groupBy: string[];
  groupWait: string;
  groupInterval: string;
  repeatInterval: string;
  muteTimeIntervals: string[];
  activeTimeIntervals: string[];
  routes: RouteDescription[];
}

/** Injection token for {@link AlertRouting}. */
export const AlertRouting = Symbol('AlertRouting');
