import { formatGoDuration } from '../../time/go-duration';
import { FuncError } from '../exec/template-func';
import { GoFloat, GoStruct, type Value } from '../exec/values';
import { GO_ZERO_TIME } from '../../time/go-zero-time';
import { zoneAbbreviation } from './zone-abbreviation';

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const TOKENS =
  /January|Jan|Monday|Mon|MST|2006|Z070000|Z0700|Z07:00:00|Z07:00|Z07|-070000|-0700|-07:00:00|-07:00|-07|[.,](?:000000000|00000000|0000000|000000|00000|0000|000|00|0|999999999|99999999|9999999|999999|99999|9999|999|99|9)(?![0-9])|__2|002|01|02|03|04|05|06|15|PM|pm|_2|1|2|3|4|5/g;

/** A wall-clock reading in a zone: the fields Go's layouts print. */
interface Reading {
  year: number;
  month: number;
  day: number;
  weekday: number;
  hour: number;
  minute: number;
  second: number;
  ms: number;
  yday: number;
  offsetMinutes: number;
  zone: string;
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

function offsetOf(ms: number, zone: string): { offset: number; abbr: string } {
  if (zone === 'UTC') return { offset: 0, abbr: 'UTC' };
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    timeZoneName: 'longOffset',
  }).formatToParts(ms);
  const name = parts.find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const m = /GMT([+-])(\d\d):(\d\d)/.exec(name);
  const offset = m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
  // Go prints the name tzdata gives the zone at that time (CET, CEST, +04); without tzdata
  // files, the platform's short name where it has letters, else the offset as tzdata writes it.
  const tzdata = zoneAbbreviation(zone, ms, offset);
  if (tzdata !== undefined) return { offset, abbr: tzdata };
  const short =
    new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'short' })
      .formatToParts(ms)
      .find((p) => p.type === 'timeZoneName')?.value ?? '';
  const abbr = /^[A-Z]{2,5}$/.test(short)
    ? short
    : `${offset < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(offset) / 60))}${Math.abs(offset) % 60 ? pad(Math.abs(offset) % 60) : ''}`;
  return { offset, abbr };
}

function read(ms: number, zone: string): Reading {
  // Go's zero time is in UTC whatever the zone asked for.
  const { offset, abbr } = ms === GO_ZERO_TIME ? { offset: 0, abbr: 'UTC' } : offsetOf(ms, zone);
  const d = new Date(ms + offset * 60_000);
  const start = Date.UTC(d.getUTCFullYear(), 0, 1);
  const yday =
    Math.floor(
      (Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()) - start) / 86_400_000,
    ) + 1;
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth(),
    day: d.getUTCDate(),
    weekday: d.getUTCDay(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    ms: d.getUTCMilliseconds(),
    yday,
    offsetMinutes: offset,
    zone: abbr,
  };
}

function zoneText(token: string, offset: number): string {
  if (token.startsWith('Z') && offset === 0) return 'Z';
  const sign = offset < 0 ? '-' : '+';
  const h = pad(Math.floor(Math.abs(offset) / 60));
  const m = pad(Math.abs(offset) % 60);
  const shape = token.replace(/^Z/, '-');
  if (shape === '-07') return `${sign}${h}`;
  if (shape === '-0700') return `${sign}${h}${m}`;
  if (shape === '-070000') return `${sign}${h}${m}00`;
  if (shape === '-07:00:00') return `${sign}${h}:${m}:00`;
  return `${sign}${h}:${m}`;
}

function fraction(token: string, ms: number): string {
  const digits = `${pad(ms, 3)}000000`;
  const width = token.length - 1;
  if (token[1] === '0') return token[0] + digits.slice(0, width);
  const trimmed = digits.slice(0, width).replace(/0+$/, '');
  return trimmed ? token[0] + trimmed : '';
}

/** Go's `time.Time.Format` with a reference layout, for a time (ms; 0 is Go's zero time) in a zone. */
export function formatTime(ms: number, layout: string, zone = 'UTC'): string {
  const r = read(ms, zone);
  const h12 = r.hour % 12 === 0 ? 12 : r.hour % 12;
  return layout.replace(TOKENS, (t) => {
    if (/^[.,]/.test(t)) return fraction(t, r.ms);
    if (/^[Z-]0/.test(t) || t === 'Z07' || t === '-07') return zoneText(t, r.offsetMinutes);
    const values: Record<string, string> = {
      January: MONTHS[r.month],
      Jan: MONTHS[r.month].slice(0, 3),
      Monday: DAYS[r.weekday],
      Mon: DAYS[r.weekday].slice(0, 3),
      MST: r.zone,
      '2006': pad(r.year, 4),
      '06': pad(r.year % 100),
      '01': pad(r.month + 1),
      '1': String(r.month + 1),
      '02': pad(r.day),
      '2': String(r.day),
      _2: String(r.day).padStart(2),
      __2: String(r.yday).padStart(3),
      '002': pad(r.yday, 3),
      '15': pad(r.hour),
      '03': pad(h12),
      '3': String(h12),
      '04': pad(r.minute),
      '4': String(r.minute),
      '05': pad(r.second),
      '5': String(r.second),
      PM: r.hour >= 12 ? 'PM' : 'AM',
      pm: r.hour >= 12 ? 'pm' : 'am',
    };
    return values[t] ?? t;
  });
}

/** Go's `time.Duration.String`, e.g. `1h2m3.5s`; see {@link formatGoDuration}. */
export const formatDuration = formatGoDuration;

/** A Go `time.Time` value (ms since the epoch; `GO_ZERO_TIME` is its zero) in a zone. */
export function goTime(ms: number, zone = 'UTC'): GoStruct {
  return new GoStruct(
    'time.Time',
    {},
    {
      Format: ([layout]) => formatTime(ms, String(layout), zone),
      String: () => formatTime(ms, '2006-01-02 15:04:05.999999999 -0700 MST', zone),
      Unix: () => Math.floor(ms / 1000),
      UnixMilli: () => ms,
      UTC: () => goTime(ms),
      IsZero: () => ms === GO_ZERO_TIME,
    },
    { time: ms, zone },
  );
}

/** A Go `time.Duration` value. */
export function goDuration(ms: number): GoStruct {
  return new GoStruct(
    'time.Duration',
    {},
    {
      String: () => formatDuration(ms),
      Seconds: () => new GoFloat(ms / 1000),
      Minutes: () => new GoFloat(ms / 60_000),
      Hours: () => new GoFloat(ms / 3_600_000),
      Milliseconds: () => Math.trunc(ms),
    },
    { duration: ms },
  );
}

/** The epoch milliseconds of a `time.Time` value, or a Go-style error. */
export function timeMs(v: Value): { ms: number; zone: string } {
  if (v instanceof GoStruct && v.typeName === 'time.Time') {
    const raw = v.raw as { time: number; zone: string };
    return { ms: raw.time, zone: raw.zone };
  }
  throw new FuncError(`expected time.Time; got ${v instanceof GoStruct ? v.typeName : typeof v}`);
}

/** Whether a zone name is known (Go's `time.LoadLocation`). */
export function isZone(name: string): boolean {
  if (name === '' || name === 'UTC' || name === 'Local') return true;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
