import type { YamlValue } from './decoder/yaml-value';
import type {
  InclusiveRange,
  TimeInterval,
  TimeIntervalSpec,
  TimeOfDayRange,
} from './model/time-interval.model';
import { parseRange, WEEKDAYS, MONTHS } from './time-range';

/** Decodes one named interval of `time_intervals` (or `mute_time_intervals`, per `kind`). */
export function decodeTimeInterval(value: YamlValue, kind: 'time' | 'mute time'): TimeInterval {
  const r = value.object(['name', 'time_intervals']);
  const name = r.string('name');
  const specs = r.get('time_intervals').list().map(decodeSpec);
  if (name === '') value.fail(`missing name in ${kind} interval`);
  return { name, time_intervals: specs };
}

function decodeSpec(value: YamlValue): TimeIntervalSpec {
  const r = value.object(['times', 'weekdays', 'days_of_month', 'months', 'years', 'location']);
  return {
    times: r.get('times').list().map(decodeTimes),
    weekdays: r.get('weekdays').list().map(decodeWeekdays),
    days_of_month: r.get('days_of_month').list().map(decodeDaysOfMonth),
    months: r.get('months').list().map(decodeMonths),
    years: r.get('years').list().map(decodeYears),
    location: r.has('location') ? decodeLocation(r.get('location')) : undefined,
  };
}

const TIME = /^(([01][0-9]|2[0-3]):[0-5][0-9]|24:00)$/;

function decodeTimes(value: YamlValue): TimeOfDayRange {
  const r = value.object(['start_time', 'end_time']);
  const start = r.string('start_time');
  const end = r.string('end_time');
  if (start === '' || end === '') value.fail('both start and end times must be provided');
  const minutes = (text: string) => {
    if (!TIME.test(text)) value.fail(`couldn't parse timestamp ${text}, invalid format`);
    const [h, m] = text.split(':').map(Number);
    return h * 60 + m;
  };
  const range = { start_minute: minutes(start), end_minute: minutes(end) };
  if (range.start_minute >= range.end_minute) {
    value.fail('start time cannot be equal or greater than end time');
  }
  return range;
}

function decodeWeekdays(value: YamlValue): InclusiveRange {
  const text = value.string();
  const range = parseRange(
    value,
    text,
    (s) => WEEKDAYS.indexOf(s),
    (s) => `${s} is not a valid weekday`,
  );
  if (range.begin > range.end) value.fail('start day cannot be before end day');
  return range;
}

function decodeDaysOfMonth(value: YamlValue): InclusiveRange {
  const range = parseRange(value, value.string(), integer, atoiError);
  for (const day of [range.begin, range.end]) {
    if (day === 0 || day < -31 || day > 31) {
      value.fail(`${day} is not a valid day of the month: out of range`);
    }
  }
  if (range.begin < 0 && range.end > 0)
    value.fail('end day must be negative if start day is negative');
  // Months have at least 28 days, so a range that is backwards in a 28-day month always is.
  const begin = range.begin < 0 ? 28 + range.begin : range.begin;
  const end = range.end < 0 ? 28 + range.end : range.end;
  if (begin > end) value.fail(`end day ${range.end} is always before start day ${range.begin}`);
  return range;
}

function decodeMonths(value: YamlValue): InclusiveRange {
  const toMonth = (s: string) => (MONTHS.includes(s) ? MONTHS.indexOf(s) + 1 : integer(s));
  const range = parseRange(value, value.string(), toMonth, (s) => `${s} is not a valid month`);
  // Upstream accepts month numbers outside 1..12, which then never match; we reject them.
  for (const month of [range.begin, range.end]) {
    if (month < 1 || month > 12) value.fail(`${month} is not a valid month: out of range`);
  }
  if (range.begin > range.end) {
    value.fail(
      `end month ${MONTHS[range.end - 1]} is before start month ${MONTHS[range.begin - 1]}`,
    );
  }
  return range;
}

function decodeYears(value: YamlValue): InclusiveRange {
  const range = parseRange(value, value.string(), integer, atoiError);
  if (range.begin > range.end)
    value.fail(`end year ${range.end} is before start year ${range.begin}`);
  return range;
}

function decodeLocation(value: YamlValue): string {
  const name = value.string();
  if (name === 'UTC' || name === 'Local' || name === '') return name || 'UTC';
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
  } catch {
    value.fail(`unknown time zone ${name}`);
  }
  return name;
}

function integer(text: string): number {
  return /^[+-]?[0-9]+$/.test(text) ? Number(text) : NaN;
}

function atoiError(text: string): string {
  return `strconv.Atoi: parsing ${JSON.stringify(text)}: invalid syntax`;
}
