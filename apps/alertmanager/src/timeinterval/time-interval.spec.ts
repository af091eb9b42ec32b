import type { TimeIntervalSpec } from '../config';
import { isTimeIntervalActive, TimeIntervalSet } from './time-interval';

const spec = (fields: Partial<TimeIntervalSpec>): TimeIntervalSpec => ({
  times: [],
  weekdays: [],
  days_of_month: [],
  months: [],
  years: [],
  ...fields,
});

const at = (iso: string) => Date.parse(iso);

describe('isTimeIntervalActive', () => {
  it.each([
    ['empty spec matches anything', spec({}), '2024-02-29T12:00:00Z', true],
    // times: start inclusive, end exclusive, 24:00 allowed
    [
      'times start inclusive',
      spec({ times: [{ start_minute: 540, end_minute: 1020 }] }),
      '2024-01-01T09:00:00Z',
      true,
    ],
    [
      'times end exclusive',
      spec({ times: [{ start_minute: 540, end_minute: 1020 }] }),
      '2024-01-01T17:00:00Z',
      false,
    ],
    [
      'times last minute before end',
      spec({ times: [{ start_minute: 540, end_minute: 1020 }] }),
      '2024-01-01T16:59:59Z',
      true,
    ],
    [
      'times 24:00 end',
      spec({ times: [{ start_minute: 1200, end_minute: 1440 }] }),
      '2024-01-01T23:59:00Z',
      true,
    ],
    [
      'times any range may match',
      spec({
        times: [
          { start_minute: 0, end_minute: 60 },
          { start_minute: 600, end_minute: 660 },
        ],
      }),
      '2024-01-01T10:30:00Z',
      true,
    ],
    // weekdays: Sunday = 0; 2024-01-01 is a Monday
    [
      'weekday monday:friday on Monday',
      spec({ weekdays: [{ begin: 1, end: 5 }] }),
      '2024-01-01T00:00:00Z',
      true,
    ],
    [
      'weekday monday:friday on Saturday',
      spec({ weekdays: [{ begin: 1, end: 5 }] }),
      '2024-01-06T00:00:00Z',
      false,
    ],
    ['weekday sunday', spec({ weekdays: [{ begin: 0, end: 0 }] }), '2024-01-07T12:00:00Z', true],
    // days of month, negatives counted from the month's end
    ['days 1:5', spec({ days_of_month: [{ begin: 1, end: 5 }] }), '2024-03-05T23:00:00Z', true],
    [
      'days 1:5 on the 6th',
      spec({ days_of_month: [{ begin: 1, end: 5 }] }),
      '2024-03-06T00:00:00Z',
      false,
    ],
    [
      'last day -1 in leap February',
      spec({ days_of_month: [{ begin: -1, end: -1 }] }),
      '2024-02-29T10:00:00Z',
      true,
    ],
    [
      'last day -1 not on Feb 28 of a leap year',
      spec({ days_of_month: [{ begin: -1, end: -1 }] }),
      '2024-02-28T10:00:00Z',
      false,
    ],
    [
      '-3:-1 in a 30-day month on the 28th',
      spec({ days_of_month: [{ begin: -3, end: -1 }] }),
      '2024-04-28T10:00:00Z',
      true,
    ],
    [
      '-3:-1 in a 30-day month on the 27th',
      spec({ days_of_month: [{ begin: -3, end: -1 }] }),
      '2024-04-27T10:00:00Z',
      false,
    ],
    [
      '1:31 clamps to the end of February',
      spec({ days_of_month: [{ begin: 1, end: 31 }] }),
      '2023-02-28T10:00:00Z',
      true,
    ],
    [
      '30:31 never matches February (start after month end)',
      spec({ days_of_month: [{ begin: 30, end: 31 }] }),
      '2023-02-28T10:00:00Z',
      false,
    ],
    [
      'mixed 25:-1 on the 31st',
      spec({ days_of_month: [{ begin: 25, end: -1 }] }),
      '2024-01-31T10:00:00Z',
      true,
    ],
    // months and years
    [
      'months may:august in June',
      spec({ months: [{ begin: 5, end: 8 }] }),
      '2024-06-15T00:00:00Z',
      true,
    ],
    [
      'months may:august in September',
      spec({ months: [{ begin: 5, end: 8 }] }),
      '2024-09-01T00:00:00Z',
      false,
    ],
    [
      'years 2020:2022 in 2022',
      spec({ years: [{ begin: 2020, end: 2022 }] }),
      '2022-12-31T23:59:59Z',
      true,
    ],
    [
      'years 2020:2022 in 2023',
      spec({ years: [{ begin: 2020, end: 2022 }] }),
      '2023-01-01T00:00:00Z',
      false,
    ],
    // all fields must match
    [
      'fields AND: weekday fails',
      spec({ weekdays: [{ begin: 1, end: 1 }], months: [{ begin: 1, end: 1 }] }),
      '2024-01-02T00:00:00Z',
      false,
    ],
    // locations: evaluated in the spec's zone
    [
      'Berlin 09:00 local is 08:00 UTC in winter',
      spec({ times: [{ start_minute: 540, end_minute: 600 }], location: 'Europe/Berlin' }),
      '2024-01-15T08:30:00Z',
      true,
    ],
    [
      'Berlin 09:00 local is 07:00 UTC in summer',
      spec({ times: [{ start_minute: 540, end_minute: 600 }], location: 'Europe/Berlin' }),
      '2024-07-15T07:30:00Z',
      true,
    ],
    [
      'Berlin window not at 09:30 UTC in summer',
      spec({ times: [{ start_minute: 540, end_minute: 600 }], location: 'Europe/Berlin' }),
      '2024-07-15T09:30:00Z',
      false,
    ],
    [
      'weekday in Sydney is already Saturday',
      spec({ weekdays: [{ begin: 6, end: 6 }], location: 'Australia/Sydney' }),
      '2024-01-05T20:00:00Z',
      true,
    ],
    [
      'last day of month in New York while UTC is the 1st',
      spec({ days_of_month: [{ begin: -1, end: -1 }], location: 'America/New_York' }),
      '2024-03-01T03:00:00Z',
      true,
    ],
    [
      'year boundary in Tokyo',
      spec({ years: [{ begin: 2025, end: 2025 }], location: 'Asia/Tokyo' }),
      '2024-12-31T16:00:00Z',
      true,
    ],
    [
      'explicit UTC',
      spec({ times: [{ start_minute: 0, end_minute: 60 }], location: 'UTC' }),
      '2024-12-31T00:30:00Z',
      true,
    ],
  ])('%s', (_name, s, iso, expected) => {
    expect(isTimeIntervalActive(s, at(iso))).toBe(expected);
    expect(isTimeIntervalActive(s, new Date(iso))).toBe(expected);
  });
});

describe('TimeIntervalSet', () => {
  const set = TimeIntervalSet.fromConfig({
    mute_time_intervals: [
      {
        name: 'weekends',
        time_intervals: [
          spec({
            weekdays: [
              { begin: 0, end: 0 },
              { begin: 6, end: 6 },
            ],
          }),
        ],
      },
    ],
    time_intervals: [
      {
        name: 'office',
        time_intervals: [
          spec({
            weekdays: [{ begin: 1, end: 5 }],
            times: [{ start_minute: 540, end_minute: 1020 }],
          }),
          spec({ days_of_month: [{ begin: 1, end: 1 }] }),
        ],
      },
    ],
  });

  it('knows both namespaces', () => {
    expect(set.has('weekends')).toBe(true);
    expect(set.has('office')).toBe(true);
    expect(set.has('nope')).toBe(false);
  });

  it.each([
    ['office', '2024-01-02T10:00:00Z', true],
    ['office', '2024-01-02T18:00:00Z', false],
    ['office', '2024-06-01T18:00:00Z', true], // second spec: the 1st of the month
    ['weekends', '2024-01-06T10:00:00Z', true],
    ['nope', '2024-01-06T10:00:00Z', false],
  ])('%s at %s is %s (any spec may match)', (name, iso, expected) => {
    expect(set.isActive(name, at(iso))).toBe(expected);
  });

  it('lists the active names in the given order', () => {
    expect(set.activeAmong(['weekends', 'office', 'nope'], at('2024-06-01T10:00:00Z'))).toEqual([
      'weekends',
      'office',
    ]);
  });
});
