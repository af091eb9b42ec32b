import type { YamlValue } from './decoder/yaml-value';
import type { InclusiveRange } from './model/time-interval.model';

/** Weekday names, indexed from Sunday = 0 as in Go's time package. */
export const WEEKDAYS = [
  'sunday',
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
] as const as readonly string[];

/** Month names, January first. */
export const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
] as const as readonly string[];

/**
 * Parses `x` or `x:y` (case-insensitive) into an inclusive range, mapping each side with
 * `member` (which returns a negative index or NaN for an unknown value).
 */
export function parseRange(
  value: YamlValue,
  text: string,
  member: (s: string) => number,
  unknown: (s: string) => string,
): InclusiveRange {
  const lower = text.toLowerCase();
  const parts = lower.includes(':') ? lower.split(':') : [lower, lower];
  if (parts.length !== 2) value.fail(`couldn't parse range ${lower}, invalid format`);
  const [begin, end] = parts.map((part) => {
    const n = member(part);
    if (Number.isNaN(n) || (n < 0 && !/^-[0-9]+$/.test(part))) value.fail(unknown(part));
    return n;
  });
  return { begin, end };
}
