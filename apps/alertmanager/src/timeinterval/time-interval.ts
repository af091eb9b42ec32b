import type { InclusiveRange, TimeInterval, TimeIntervalSpec } from '../config';
import { zonedTime } from './zoned-time';

function inRange(value: number, ranges: readonly InclusiveRange[]): boolean {
  return ranges.some((r) => value >= r.begin && value <= r.end);
}

/**
 * Days of month count from the month's end when negative (`-1` is the last day). As upstream,
 * a range whose start falls after this month's end never matches, and both ends are clamped
 * to the month so that `1:31` in February stops at its last day.
 */
function inDaysOfMonth(day: number, daysInMonth: number, ranges: readonly InclusiveRange[]) {
  return ranges.some((r) => {
    const begin = r.begin < 0 ? daysInMonth + r.begin + 1 : r.begin;
    const end = r.end < 0 ? daysInMonth + r.end + 1 : r.end;
    if (begin > daysInMonth) return false;
    const clamp = (d: number) => Math.min(Math.max(d, -daysInMonth), daysInMonth);
    return day >= clamp(begin) && day <= clamp(end);
  });
}

/**
 * Whether an instant falls in one time interval spec. Each field is evaluated in the spec's
 * `location` (UTC by default); within a field any range may match, across fields all must, and
 * an empty field matches anything. `times` ranges include their start and exclude their end.
 */
export function isTimeIntervalActive(spec: TimeIntervalSpec, at: number | Date): boolean {
  const t = zonedTime(typeof at === 'number' ? at : at.getTime(), spec.location);
  if (
    spec.times.length > 0 &&
    !spec.times.some((r) => t.minuteOfDay >= r.start_minute && t.minuteOfDay < r.end_minute)
  ) {
    return false;
  }
  if (spec.days_of_month.length > 0 && !inDaysOfMonth(t.day, t.daysInMonth, spec.days_of_month)) {
    return false;
  }
  if (spec.months.length > 0 && !inRange(t.month, spec.months)) return false;
  if (spec.weekdays.length > 0 && !inRange(t.weekday, spec.weekdays)) return false;
  if (spec.years.length > 0 && !inRange(t.year, spec.years)) return false;
  return true;
}

/**
 * The configured time intervals by name (`time_intervals` and the deprecated
 * `mute_time_intervals`, which share one namespace). A name is active when any of its specs is.
 */
export class TimeIntervalSet {
  private readonly byName = new Map<string, readonly TimeIntervalSpec[]>();

  constructor(intervals: Iterable<TimeInterval>) {
    for (const interval of intervals) this.byName.set(interval.name, interval.time_intervals);
  }

  /** Builds the set from a loaded config. */
  static fromConfig(config: {
    time_intervals: readonly TimeInterval[];
    mute_time_intervals: readonly TimeInterval[];
  }): TimeIntervalSet {
    return new TimeIntervalSet([...config.mute_time_intervals, ...config.time_intervals]);
  }

  /** Whether the named interval exists. */
  has(name: string): boolean {
    return this.byName.has(name);
  }

  /** Whether the named interval is active at `now`; an unknown name is never active. */
  isActive(name: string, now: number): boolean {
    return (this.byName.get(name) ?? []).some((spec) => isTimeIntervalActive(spec, now));
  }

  /** The names among `names` that are active at `now`, in the given order. */
  activeAmong(names: readonly string[], now: number): string[] {
    return names.filter((name) => this.isActive(name, now));
  }
}
