import { parseMatchers } from '../../labels';
import type { SilenceInput } from '../silence';

/** 2026-01-01T00:00:00Z, the fake "now" of the silence specs. */
export const T0 = Date.UTC(2026, 0, 1);
/** One hour in ms. */
export const HOUR = 3_600_000;

/** A valid silence input from a matcher string, active from `T0` for an hour unless overridden. */
export function silenceInput(matchers: string, over: Partial<SilenceInput> = {}): SilenceInput {
  return {
    matchers: parseMatchers(matchers),
    startsAt: T0,
    endsAt: T0 + HOUR,
    createdBy: 'ops',
    comment: 'maintenance',
    ...over,
  };
}
