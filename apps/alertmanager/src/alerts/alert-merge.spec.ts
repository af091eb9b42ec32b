import type { Alert } from './alert.model';
import { mergeAlerts, overlaps } from './alert-merge';

const NOW = 1_000_000;

function alert(fields: Partial<Alert>): Alert {
  return {
    labels: { a: 'b' },
    annotations: {},
    startsAt: NOW - 100,
    endsAt: NOW + 100,
    updatedAt: NOW - 50,
    generatorURL: '',
    timeout: false,
    fingerprint: 'd2b371819297f98a',
    ...fields,
  };
}

describe('overlaps', () => {
  const stored = alert({ startsAt: 100, endsAt: 200 });
  it.each([
    ['end inside', { startsAt: 50, endsAt: 150 }, true],
    ['start inside', { startsAt: 150, endsAt: 300 }, true],
    ['inside entirely', { startsAt: 120, endsAt: 180 }, true],
    ['same start, later end (edges are exclusive)', { startsAt: 100, endsAt: 300 }, false],
    ['starts at the stored end', { startsAt: 200, endsAt: 300 }, false],
    ['after the stored end (re-fire)', { startsAt: 250, endsAt: 300 }, false],
    ['ends at the stored start', { startsAt: 50, endsAt: 100 }, false],
    ['covers it', { startsAt: 50, endsAt: 300 }, false],
  ])('%s', (_name, incoming, expected) => {
    expect(overlaps(stored, alert(incoming))).toBe(expected);
  });
});

describe('mergeAlerts', () => {
  it.each([
    [
      'the newer alert gives labels, annotations and generator URL',
      alert({ annotations: { v: 'old' }, generatorURL: 'http://old' }),
      alert({ updatedAt: NOW, annotations: { v: 'new' }, generatorURL: 'http://new' }),
      { annotations: { v: 'new' }, generatorURL: 'http://new', updatedAt: NOW },
    ],
    [
      'the earliest start is kept',
      alert({ startsAt: NOW - 500 }),
      alert({ updatedAt: NOW, startsAt: NOW - 10 }),
      { startsAt: NOW - 500 },
    ],
    [
      'firing newer: a later explicit end of the older wins',
      alert({ endsAt: NOW + 900 }),
      alert({ updatedAt: NOW, endsAt: NOW + 300 }),
      { endsAt: NOW + 900 },
    ],
    [
      'firing newer: a later end the older got by timeout does not',
      alert({ endsAt: NOW + 900, timeout: true }),
      alert({ updatedAt: NOW, endsAt: NOW + 300 }),
      { endsAt: NOW + 300 },
    ],
    [
      'resolved newer, firing older: the resolution stands',
      alert({ endsAt: NOW + 900 }),
      alert({ updatedAt: NOW, endsAt: NOW - 10 }),
      { endsAt: NOW - 10 },
    ],
    [
      'both resolved: the later end wins',
      alert({ endsAt: NOW - 5 }),
      alert({ updatedAt: NOW, endsAt: NOW - 20 }),
      { endsAt: NOW - 5 },
    ],
  ])('%s', (_name, older, newer, expected) => {
    expect(mergeAlerts(older, newer, NOW)).toMatchObject(expected);
    // The argument order does not matter: updatedAt decides which is newer.
    expect(mergeAlerts(newer, older, NOW)).toMatchObject(expected);
  });
});
