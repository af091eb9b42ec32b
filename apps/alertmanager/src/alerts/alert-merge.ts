import { isResolvedAt, type Alert } from './alert.model';

/**
 * Whether an incoming alert continues a stored one: its end or its start falls strictly inside
 * the stored alert's activity range. Otherwise the new alert replaces the old one outright, so
 * an alert that fires again after it resolved starts afresh.
 */
export function overlaps(stored: Alert, incoming: Alert): boolean {
  return (
    (incoming.endsAt > stored.startsAt && incoming.endsAt < stored.endsAt) ||
    (incoming.startsAt > stored.startsAt && incoming.startsAt < stored.endsAt)
  );
}

/**
 * Upstream's `Alert.Merge`: the more recently updated alert wins for labels, annotations and the
 * generator URL; the earliest start is kept; a resolved newer alert keeps the later of both ends
 * when both are resolved; a firing newer alert gives way to a later end that the older alert
 * had set explicitly (not by timeout).
 */
export function mergeAlerts(a: Alert, b: Alert, now: number): Alert {
  const [older, newer] = b.updatedAt < a.updatedAt ? [b, a] : [a, b];
  const merged: Alert = { ...newer };
  if (older.startsAt < newer.startsAt) merged.startsAt = older.startsAt;
  if (isResolvedAt(newer, now)) {
    if (isResolvedAt(older, now) && older.endsAt > newer.endsAt) merged.endsAt = older.endsAt;
  } else if (older.endsAt > newer.endsAt && !older.timeout) {
    merged.endsAt = older.endsAt;
  }
  return merged;
}
