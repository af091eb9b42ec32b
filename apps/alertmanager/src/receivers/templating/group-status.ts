import { createHash } from 'node:crypto';
import { isResolvedAt, type Alert } from '../../alerts/alert.model';

/** Upstream's `Alerts.Status()`: resolved only when every alert of the flush is. */
export function allResolved(alerts: readonly Alert[], now: number): boolean {
  return alerts.every((a) => isResolvedAt(a, now));
}

/** Upstream's `GroupKey.Hash()`: the SHA-256 of the group key, hex; alias / entity IDs. */
export function groupKeyHash(groupKey: string): string {
  return createHash('sha256').update(groupKey).digest('hex');
}

/** Upstream's `CommonLabels`: the labels every alert of the flush has with the same value. */
export function commonLabels(alerts: readonly Alert[]): Record<string, string> {
  if (alerts.length === 0) return {};
  const [first, ...rest] = alerts;
  return Object.fromEntries(
    Object.entries(first.labels).filter(([k, v]) => rest.every((a) => a.labels[k] === v)),
  );
}
