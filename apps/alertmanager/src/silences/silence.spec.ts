import { silenceState, type SilenceState } from './silence';
import { HOUR, T0 } from './testing/silence-input';

describe('silenceState', () => {
  const silence = { startsAt: T0, endsAt: T0 + HOUR };
  it.each<[string, number, SilenceState]>([
    ['before the start', T0 - 1, 'pending'],
    ['at the start', T0, 'active'],
    ['in between', T0 + HOUR / 2, 'active'],
    ['at the end', T0 + HOUR, 'active'],
    ['after the end', T0 + HOUR + 1, 'expired'],
  ])('%s is %s', (_, now, state) => {
    expect(silenceState(silence, now)).toBe(state);
  });
});
