import { validateAlert } from './alert-validation';

const T = Date.UTC(2026, 0, 2);

describe('validateAlert', () => {
  it.each([
    ['valid', { labels: { a: 'b' }, startsAt: T, endsAt: 0 }, undefined],
    ['zero start', { labels: { a: 'b' }, startsAt: 0, endsAt: 0 }, 'start time missing'],
    [
      'end before start',
      { labels: { a: 'b' }, startsAt: T, endsAt: T - 1 },
      'start time must be before end time',
    ],
    ['end equal to start', { labels: { a: 'b' }, startsAt: T, endsAt: T }, undefined],
    ['no labels', { labels: {}, startsAt: T, endsAt: 0 }, 'at least one label pair required'],
    [
      'bad label name',
      { labels: { '0bad': 'x' }, startsAt: T, endsAt: 0 },
      'invalid label set: invalid name "0bad"',
    ],
    [
      'label name with a dash',
      { labels: { 'a-b': 'x' }, startsAt: T, endsAt: 0 },
      'invalid label set: invalid name "a-b"',
    ],
    [
      'lone surrogate in a value',
      { labels: { a: 'x\ud800' }, startsAt: T, endsAt: 0 },
      'invalid label set: invalid value "x\\ud800"',
    ],
    ['emoji value', { labels: { a: '😀' }, startsAt: T, endsAt: 0 }, undefined],
    [
      'bad annotation name',
      { labels: { a: 'b' }, annotations: { '0x': 'y' }, startsAt: T, endsAt: 0 },
      'invalid annotations: invalid name "0x"',
    ],
    ['start checked before labels', { labels: {}, startsAt: 0, endsAt: 0 }, 'start time missing'],
  ])('%s', (_name, fields, expected) => {
    expect(validateAlert({ annotations: {}, ...fields })).toBe(expected);
  });
});
