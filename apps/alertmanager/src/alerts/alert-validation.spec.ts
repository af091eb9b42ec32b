import { validateAlert } from './alert-validation';
import { GO_ZERO_TIME } from '../time/go-zero-time';

const T = Date.UTC(2026, 0, 2);

describe('validateAlert', () => {
  it.each([
    ['valid', { labels: { a: 'b' }, startsAt: T, endsAt: GO_ZERO_TIME }, undefined],
    [
      'zero start',
      { labels: { a: 'b' }, startsAt: GO_ZERO_TIME, endsAt: GO_ZERO_TIME },
      'start time missing',
    ],
    [
      'end before start',
      { labels: { a: 'b' }, startsAt: T, endsAt: T - 1 },
      'start time must be before end time',
    ],
    ['end equal to start', { labels: { a: 'b' }, startsAt: T, endsAt: T }, undefined],
    [
      'no labels',
      { labels: {}, startsAt: T, endsAt: GO_ZERO_TIME },
      'at least one label pair required',
    ],
    [
      'bad label name',
      { labels: { '0bad': 'x' }, startsAt: T, endsAt: GO_ZERO_TIME },
      'invalid label set: invalid name "0bad"',
    ],
    [
      'label name with a dash',
      { labels: { 'a-b': 'x' }, startsAt: T, endsAt: GO_ZERO_TIME },
      'invalid label set: invalid name "a-b"',
    ],
    [
      'lone surrogate in a value',
      { labels: { a: 'x\ud800' }, startsAt: T, endsAt: GO_ZERO_TIME },
      'invalid label set: invalid value "x\\ud800"',
    ],
    ['emoji value', { labels: { a: '😀' }, startsAt: T, endsAt: GO_ZERO_TIME }, undefined],
    [
      'bad annotation name',
      { labels: { a: 'b' }, annotations: { '0x': 'y' }, startsAt: T, endsAt: GO_ZERO_TIME },
      'invalid annotations: invalid name "0x"',
    ],
    [
      'end before start at the Unix epoch',
      { labels: { a: 'b' }, startsAt: 0, endsAt: -1000 },
      'start time must be before end time',
    ],
    [
      'start checked before labels',
      { labels: {}, startsAt: GO_ZERO_TIME, endsAt: GO_ZERO_TIME },
      'start time missing',
    ],
  ])('%s', (_name, fields, expected) => {
    expect(validateAlert({ annotations: {}, ...fields })).toBe(expected);
  });
});

describe('validateAlert with size limits', () => {
  const limits = { maxLabelsBytes: 16, maxAnnotationsBytes: 20 };
  const alert = (labels: Record<string, string>, annotations = {}, generatorURL = '') => ({
    labels,
    annotations,
    generatorURL,
    startsAt: T,
    endsAt: GO_ZERO_TIME,
  });
  it.each([
    ['labels at the limit', alert({ alertname: 'abcdefg' }), undefined],
    [
      'labels over the limit',
      alert({ alertname: 'abcdefgh' }),
      'invalid label set: labels take 17 bytes, more than the 16 allowed by --alerts.max-labels-size-bytes',
    ],
    ['multi-byte labels under the limit', alert({ a: 'ééééééé' }), undefined],
    [
      'multi-byte labels over the limit',
      alert({ a: 'éééééééé' }),
      'invalid label set: labels take 17 bytes, more than the 16 allowed by --alerts.max-labels-size-bytes',
    ],
    ['annotations at the limit', alert({ a: 'b' }, { summary: 'x' }, 'http://x/12'), undefined],
    [
      'annotations and generator URL over the limit',
      alert({ a: 'b' }, { summary: 'x' }, 'http://x/1234'),
      'invalid annotations: annotations and generator URL take 21 bytes, more than the 20 allowed by --alerts.max-annotations-size-bytes',
    ],
    [
      "upstream's checks first",
      alert({ '0bad': 'x'.repeat(100) }),
      'invalid label set: invalid name "0bad"',
    ],
  ])('%s', (_name, fields, expected) => {
    expect(validateAlert(fields, limits)).toBe(expected);
  });

  it('has no bound at 0', () => {
    const big = alert({ a: 'x'.repeat(100_000) }, { d: 'y'.repeat(100_000) });
    expect(validateAlert(big, { maxLabelsBytes: 0, maxAnnotationsBytes: 0 })).toBeUndefined();
  });
});
