import { dedupDecision, type LastNotification } from './dedup-decision';

const NOW = 1_000_000_000;
const REPEAT = 60_000;
const entry = (firing: string[], resolved: string[], age = 0): LastNotification => ({
  timestamp: NOW - age,
  firingAlerts: firing,
  resolvedAlerts: resolved,
});

describe('dedupDecision (upstream DedupStage.needsUpdate)', () => {
  it.each([
    // [name, entry, firing, resolved, sendResolved, expected]
    ['no entry, firing', undefined, ['a'], [], true, 'first notification'],
    ['no entry, only resolved', undefined, [], ['a'], true, undefined],
    ['no entry, nothing', undefined, [], [], true, undefined],
    ['new firing alert', entry(['a'], []), ['a', 'b'], [], true, 'new alerts added'],
    [
      'new firing alert without send_resolved',
      entry(['a'], []),
      ['a', 'b'],
      [],
      false,
      'new alerts added',
    ],
    ['re-fire of a resolved alert', entry(['b'], ['a']), ['a', 'b'], [], true, 'new alerts added'],
    ['same firing set, fresh', entry(['a', 'b'], []), ['b', 'a'], [], true, undefined],
    ['fewer firing (one vanished), no resolved', entry(['a', 'b'], []), ['a'], [], true, undefined],
    ['all resolved with send_resolved', entry(['a'], []), [], ['a'], true, 'all alerts resolved'],
    [
      'all resolved without send_resolved (clears the log)',
      entry(['a'], []),
      [],
      ['a'],
      false,
      'all alerts resolved',
    ],
    ['all resolved, already notified as resolved', entry([], ['a']), [], ['a'], true, undefined],
    ['fired and resolved between flushes', entry([], []), [], ['a'], true, undefined],
    [
      'some resolved with send_resolved',
      entry(['a', 'b'], []),
      ['a'],
      ['b'],
      true,
      'some alerts resolved',
    ],
    ['some resolved without send_resolved', entry(['a', 'b'], []), ['a'], ['b'], false, undefined],
    ['some resolved, already notified', entry(['a'], ['b']), ['a'], ['b'], true, undefined],
    [
      'repeat interval elapsed',
      entry(['a'], [], REPEAT + 1),
      ['a'],
      [],
      true,
      'repeat interval elapsed',
    ],
    [
      'repeat interval exactly reached is not elapsed',
      entry(['a'], [], REPEAT),
      ['a'],
      [],
      true,
      undefined,
    ],
    [
      'repeat elapsed with only resolved already notified',
      entry([], ['a'], REPEAT + 1),
      [],
      ['a'],
      true,
      undefined,
    ],
  ])('%s', (_name, last, firing, resolved, sendResolved, expected) => {
    expect(
      dedupDecision(last, {
        firing: new Set(firing),
        resolved: new Set(resolved),
        sendResolved,
        repeatInterval: REPEAT,
        now: NOW,
      }),
    ).toBe(expected);
  });
});
