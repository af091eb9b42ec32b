import type { LabelSet } from '../labels';
import type { Muter } from '../labels/muter';

/**
 * The muters that decide an alert's status. Read on every request, so a reload or new silences
 * can replace them: silences fill `silencedBy`, inhibition rules `inhibitedBy`.
 */
export interface AlertMuting {
  silencers(): readonly Muter[];
  inhibitors(): readonly Muter[];
}

/** Injection token for {@link AlertMuting}. */
export const AlertMuting = Symbol('AlertMuting');

/** Muting that never changes; with no arguments nothing is ever muted. */
export function fixedMuting(silencers: Muter[] = [], inhibitors: Muter[] = []): AlertMuting {
  return { silencers: () => silencers, inhibitors: () => inhibitors };
}

/** An alert's status as the API shows it. */
export interface AlertStatus {
  state: 'active' | 'suppressed' | 'unprocessed';
  silencedBy: string[];
  inhibitedBy: string[];
}

const NOT_MUTED: readonly string[] = Object.freeze([]);

function mutedBy(muters: readonly Muter[], labels: LabelSet, now: number): string[] {
  if (muters.length === 0) return NOT_MUTED as string[];
  if (muters.length === 1) return muters[0].mutedBy(labels, now);
  return muters.flatMap((m) => m.mutedBy(labels, now));
}

/**
 * Computes the status from the muters now, as upstream's API does on every GET: suppressed when
 * any silence or inhibition mutes the labels, else active.
 */
export function alertStatus(muting: AlertMuting, labels: LabelSet, now: number): AlertStatus {
  const silencedBy = mutedBy(muting.silencers(), labels, now);
  const inhibitedBy = mutedBy(muting.inhibitors(), labels, now);
  if (silencedBy.length === 0 && inhibitedBy.length === 0) return ACTIVE;
  return { state: 'suppressed', silencedBy, inhibitedBy };
}

// Shared by every unmuted alert, so listing 100,000 of them allocates no status objects.
const ACTIVE: AlertStatus = Object.freeze({
  state: 'active',
  silencedBy: NOT_MUTED as string[],
  inhibitedBy: NOT_MUTED as string[],
});
