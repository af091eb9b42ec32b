import type { Matcher } from '../labels';

/**
 * A silence as the server holds it. Times are milliseconds since the Unix epoch. A silence mutes
 * an alert while it is active and every one of its matchers accepts the alert's labels.
 */
export interface Silence {
  /** A UUIDv4. */
  id: string;
  matchers: readonly Matcher[];
  startsAt: number;
  endsAt: number;
  updatedAt: number;
  createdBy: string;
  comment: string;
}

/** A silence as a client sends it: `id` names the silence to update, absent to create one. */
export type SilenceInput = Omit<Silence, 'id' | 'updatedAt'> & { id?: string };

/** The states of a silence, derived from the clock on every read, never stored. */
export type SilenceState = 'pending' | 'active' | 'expired';

/** Pending before `startsAt`, expired after `endsAt`, active in between (both ends included). */
export function silenceState(
  silence: Pick<Silence, 'startsAt' | 'endsAt'>,
  now: number,
): SilenceState {
  if (now < silence.startsAt) return 'pending';
  if (now > silence.endsAt) return 'expired';
  return 'active';
}
