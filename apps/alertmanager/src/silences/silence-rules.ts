import type { Matcher } from '../labels';
import { silenceState, type Silence, type SilenceInput } from './silence';

function sameMatchers(a: readonly Matcher[], b: readonly Matcher[]): boolean {
  return (
    a.length === b.length &&
    a.every((m, i) => m.type === b[i].type && m.name === b[i].name && m.value === b[i].value)
  );
}

const sameSecond = (a: number, b: number) => Math.floor(a / 1000) === Math.floor(b / 1000);

/**
 * Upstream's `canUpdate`: whether `next` may replace `old` under the same id. The matchers must
 * be the same list; an active silence keeps its start (clients send back the stored one, which
 * the API prints to the millisecond, so compare to the second) and may not end in the past; a
 * pending one may move as long as its start is not in the past; an expired one never changes.
 * Author and comment may always change.
 */
export function canUpdateInPlace(old: Silence, next: SilenceInput, now: number): boolean {
  if (!sameMatchers(old.matchers, next.matchers)) return false;
  switch (silenceState(old, now)) {
    case 'active':
      return sameSecond(next.startsAt, old.startsAt) && next.endsAt >= now;
    case 'pending':
      return next.startsAt >= now;
    case 'expired':
      return false;
  }
}

/**
 * The silence after an expiry at `now`: an active one ends now, a pending one starts and ends
 * now; an expired one is returned unchanged (expiring it again is a no-op).
 */
export function expiredAt(silence: Silence, now: number): Silence {
  switch (silenceState(silence, now)) {
    case 'active':
      return { ...silence, endsAt: now, updatedAt: now };
    case 'pending':
      return { ...silence, startsAt: now, endsAt: now, updatedAt: now };
    case 'expired':
      return silence;
  }
}
