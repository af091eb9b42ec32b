import { Document } from 'yaml';
import { Matcher } from '../labels';
import { formatDuration } from '../time/duration';
import { formatGoDuration } from '../time/go-duration';
import type { AlertmanagerConfig } from './model/config.model';
import { Secret, SECRET_TOKEN } from './model/secret';
import type { InclusiveRange, TimeInterval } from './model/time-interval.model';
import { WEEKDAYS } from './time-range';

// Fields held in milliseconds in the model and printed as Prometheus durations.
const DURATION_KEYS = new Set([
  'resolve_timeout',
  'group_wait',
  'group_interval',
  'repeat_interval',
  'timeout',
  'reopen_duration',
]);

// Pushover's durations, which upstream reads and prints as Go durations (`1m0s`).
const GO_DURATION_KEYS = new Set(['retry', 'expire', 'ttl']);

// Empty lists and maps are left out, except where leaving out would change the meaning.
const ALWAYS_PRINTED = new Set(['group_by']);

/**
 * Prints a configuration as YAML with every default filled in, the way Alertmanager's status
 * API shows `config.original`: secrets print as `<secret>`, aliases use upstream's names.
 * Parsing the output of a config without secrets gives the same config back.
 */
export function serializeConfig(config: AlertmanagerConfig): string {
  const plain = toPlain({
    ...config,
    mute_time_intervals: config.mute_time_intervals.map(intervalToPlain),
    time_intervals: config.time_intervals.map(intervalToPlain),
  });
  return new Document(plain, { version: '1.1' }).toString({ lineWidth: 0 });
}

function toPlain(value: unknown, key = ''): unknown {
  if (value instanceof Secret) return SECRET_TOKEN;
  if (value instanceof Matcher) return value.toString();
  if (typeof value === 'number' && DURATION_KEYS.has(key)) return formatDuration(value);
  if (typeof value === 'number' && GO_DURATION_KEYS.has(key)) return formatGoDuration(value);
  if (Array.isArray(value)) return value.map((item) => toPlain(item));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (v === undefined || (isEmpty(v) && !ALWAYS_PRINTED.has(k))) continue;
    out[k] = toPlain(v, k);
  }
  return out;
}

function isEmpty(value: unknown): boolean {
  if (Array.isArray(value)) return value.length === 0;
  return (
    value !== null &&
    typeof value === 'object' &&
    Object.getPrototypeOf(value) === Object.prototype &&
    Object.keys(value).length === 0
  );
}

function intervalToPlain(interval: TimeInterval) {
  const pad = (n: number) => String(n).padStart(2, '0');
  const time = (minute: number) => `${pad(Math.floor(minute / 60))}:${pad(minute % 60)}`;
  return {
    name: interval.name,
    time_intervals: interval.time_intervals.map((spec) => ({
      times: spec.times.map((t) => ({
        start_time: time(t.start_minute),
        end_time: time(t.end_minute),
      })),
      weekdays: spec.weekdays.map((r) => rangeText(r, (n) => WEEKDAYS[n])),
      days_of_month: spec.days_of_month.map((r) => rangeText(r, String)),
      months: spec.months.map((r) => rangeText(r, String)),
      years: spec.years.map((r) => rangeText(r, String)),
      location: spec.location,
    })),
  };
}

function rangeText(range: InclusiveRange, name: (n: number) => string): string {
  return range.begin === range.end ? name(range.begin) : `${name(range.begin)}:${name(range.end)}`;
}
