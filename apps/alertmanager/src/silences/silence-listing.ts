import type { Matcher } from '../labels';
import { silenceState, type Silence, type SilenceState } from './silence';

/** Which silences `GET /api/v2/silences` returns. */
export interface SilenceFilter {
  /** Compared syntactically: a silence needs a matcher with the same name, operator and value. */
  matchers: readonly Matcher[];
  /** The states to include (HEAD's `active`, `pending`, `expired` parameters). */
  states: ReadonlySet<SilenceState>;
}

const RANK: Record<SilenceState, number> = { active: 0, pending: 1, expired: 2 };

/**
 * Upstream's listing order: active silences by end (soonest first), then pending ones by start,
 * then expired ones by end, most recent first. Ties keep the id order, so the listing is stable.
 */
export function compareForListing(a: Silence, b: Silence, now: number): number {
  const sa = silenceState(a, now);
  const sb = silenceState(b, now);
  if (sa !== sb) return RANK[sa] - RANK[sb];
  const diff =
    sa === 'active'
      ? a.endsAt - b.endsAt
      : sa === 'pending'
        ? a.startsAt - b.startsAt
        : b.endsAt - a.endsAt;
  if (diff !== 0) return diff;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

function hasMatcher(silence: Silence, wanted: Matcher): boolean {
  return silence.matchers.some(
    (m) => m.name === wanted.name && m.type === wanted.type && m.value === wanted.value,
  );
}

/** The silences passing the filter, in listing order. */
export function listSilences(
  all: Iterable<Silence>,
  filter: SilenceFilter,
  now: number,
): Silence[] {
  const out: Silence[] = [];
  for (const silence of all) {
    if (!filter.states.has(silenceState(silence, now))) continue;
    if (filter.matchers.every((m) => hasMatcher(silence, m))) out.push(silence);
  }
  return out.sort((a, b) => compareForListing(a, b, now));
}
