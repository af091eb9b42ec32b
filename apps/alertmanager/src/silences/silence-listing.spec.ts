import { parseMatchers } from '../labels';
import type { SilenceState } from './silence';
import { listSilences } from './silence-listing';
import { SilenceStore } from './silence-store';
import { HOUR, silenceInput, T0 } from './testing/silence-input';

const ALL = new Set<SilenceState>(['active', 'pending', 'expired']);

describe('silence listing', () => {
  it('orders active by end, then pending by start, then expired by end, latest first', async () => {
    const store = new SilenceStore();
    const make = (name: string, startsAt: number, endsAt: number) =>
      store.set(silenceInput(`n="${name}"`, { startsAt, endsAt, comment: name }), T0);
    await make('active-late', T0, T0 + 5 * HOUR);
    await make('pending-late', T0 + 3 * HOUR, T0 + 9 * HOUR);
    await make('expired-early', T0, T0 + HOUR);
    await make('active-soon', T0, T0 + 3 * HOUR);
    await make('pending-soon', T0 + 2.5 * HOUR, T0 + 9 * HOUR);
    await make('expired-late', T0, T0 + 1.5 * HOUR);
    const listed = listSilences(store.list(), { matchers: [], states: ALL }, T0 + 2 * HOUR);
    expect(listed.map((s) => s.comment)).toEqual([
      'active-soon',
      'active-late',
      'pending-soon',
      'pending-late',
      'expired-late',
      'expired-early',
    ]);
  });

  it.each<[string, string[]]>([
    ['a="1"', ['one', 'both']],
    ['a=~"1"', ['regex']],
    ['a="1", b="2"', ['both']],
    ['b="2"', ['both']],
    ['a="2"', []],
  ])('filter %s compares matchers as written', async (filter, expected) => {
    const store = new SilenceStore();
    await store.set(silenceInput('a="1"', { comment: 'one' }), T0);
    await store.set(silenceInput('a=~"1"', { comment: 'regex' }), T0);
    await store.set(silenceInput('a="1", b="2"', { comment: 'both', endsAt: T0 + 2 * HOUR }), T0);
    const listed = listSilences(store.list(), { matchers: parseMatchers(filter), states: ALL }, T0);
    expect(listed.map((s) => s.comment)).toEqual(expected);
  });
});
