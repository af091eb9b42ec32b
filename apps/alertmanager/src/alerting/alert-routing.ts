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
}

/** Injection token for {@link AlertRouting}. */
export const AlertRouting = Symbol('AlertRouting');
