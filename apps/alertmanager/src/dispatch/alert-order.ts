import type { Alert } from '../alerts/alert.model';
import { compareGoStrings, labelSetBefore } from '../labels/label-set-format';

/**
 * Upstream's notification order (`types.AlertSlice`): by `job`, then `instance`, an alert
 * missing the label sorting after one that has it, then by the whole label set.
 */
export function compareAlerts(a: Pick<Alert, 'labels'>, b: Pick<Alert, 'labels'>): number {
  for (const key of ['job', 'instance']) {
    const inA = key in a.labels;
    const inB = key in b.labels;
    if (!inA && !inB) continue;
    if (!inA) return 1;
    if (!inB) return -1;
    const d = compareGoStrings(a.labels[key], b.labels[key]);
    if (d !== 0) return d;
  }
  return labelSetBefore(a.labels, b.labels);
}

/** Returns the alerts in notification order (a stable sort, as upstream's `sort.Stable`). */
export function sortAlerts<T extends Pick<Alert, 'labels'>>(alerts: readonly T[]): T[] {
  return [...alerts].sort(compareAlerts);
}
