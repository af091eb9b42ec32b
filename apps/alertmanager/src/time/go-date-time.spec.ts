import { goTimeParseError, parseDateTime } from './go-date-time';
import { GO_ZERO_TIME } from './go-zero-time';

describe('parseDateTime', () => {
  it.each([
    ['2026-01-02T03:04:05Z', Date.UTC(2026, 0, 2, 3, 4, 5)],
    ['2026-01-02T03:04:05.123456789Z', Date.UTC(2026, 0, 2, 3, 4, 5, 123)],
    ['2026-01-02T03:04:05-07:30', Date.UTC(2026, 0, 2, 10, 34, 5)],
    ['2026-01-02T03:04:05', Date.UTC(2026, 0, 2, 3, 4, 5)],
    ['2026-01-02T03:04Z', Date.UTC(2026, 0, 2, 3, 4)],
    ['2026-01-02T03:04', Date.UTC(2026, 0, 2, 3, 4)],
    ['2026-01-02 03:04:05', Date.UTC(2026, 0, 2, 3, 4, 5)],
    ['0001-01-01T00:00:00Z', GO_ZERO_TIME],
    ['0001-01-01T00:00:00.000Z', GO_ZERO_TIME],
    ['1970-01-01T00:00:00Z', 0],
    ['2027-02-30T00:00:00Z', undefined],
    ['2028-02-29T00:00:00Z', Date.UTC(2028, 1, 29)],
    ['2027-04-31 10:00:00', undefined],
    ['2026-13-02T03:04:05Z', undefined],
    ['2026-01-02', undefined],
    ['yesterday', undefined],
  ])('%s', (text, expected) => {
    expect(parseDateTime(text)).toBe(expected);
  });
});

describe('goTimeParseError', () => {
  it.each([
    [
      'nope',
      '2006-01-02 15:04:05',
      'parsing time "nope" as "2006-01-02 15:04:05": cannot parse "nope" as "2006"',
    ],
    [
      '2026/01',
      '2006-01-02 15:04:05',
      'parsing time "2026/01" as "2006-01-02 15:04:05": cannot parse "/01" as "-"',
    ],
    [
      '2026-13-01 00:00:00',
      '2006-01-02 15:04:05',
      'parsing time "2026-13-01 00:00:00": month out of range',
    ],
    [
      '2027-02-30 00:00:00',
      '2006-01-02 15:04:05',
      'parsing time "2027-02-30 00:00:00": day out of range',
    ],
    [
      '2027-02-30T00:00:00Z',
      '2006-01-02 15:04:05',
      'parsing time "2027-02-30T00:00:00Z" as "2006-01-02 15:04:05": cannot parse "T00:00:00Z" as " "',
    ],
    [
      '"2027-02-30T00:00:00Z"',
      '"2006-01-02T15:04:05Z07:00"',
      'parsing time "\\"2027-02-30T00:00:00Z\\"": day out of range',
    ],
    [
      '2026-01-01 00:00:00x',
      '2006-01-02 15:04:05',
      'parsing time "2026-01-01 00:00:00x": extra text: "x"',
    ],
    [
      '"nope"',
      '"2006-01-02T15:04:05Z07:00"',
      'parsing time "\\"nope\\"" as "\\"2006-01-02T15:04:05Z07:00\\"": cannot parse "nope\\"" as "2006"',
    ],
  ])('%s as %s', (value, layout, expected) => {
    expect(goTimeParseError(value, layout)).toBe(expected);
  });
});
