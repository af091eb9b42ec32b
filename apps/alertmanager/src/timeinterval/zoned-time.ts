/** The calendar fields of an instant in one time zone, as Go's `time.Time.In(loc)` exposes them. */
export interface ZonedTime {
  year: number;
  /** 1 to 12. */
  month: number;
  /** Day of the month, 1 to 31. */
  day: number;
  /** 0 (Sunday) to 6 (Saturday). */
  weekday: number;
  /** Minutes since local midnight, 0 to 1439. */
  minuteOfDay: number;
  /** Number of days in this month (28 to 31). */
  daysInMonth: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    });
    formatters.set(zone, formatter);
  }
  return formatter;
}

/**
 * Converts epoch milliseconds to calendar fields in `zone` (an IANA name; `UTC` or undefined
 * means UTC). The config loader has already checked that the zone exists.
 */
export function zonedTime(epochMs: number, zone = 'UTC'): ZonedTime {
  const parts: Record<string, number> = {};
  for (const part of formatterFor(zone).formatToParts(new Date(epochMs))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  const { year, month, day, hour, minute } = parts;
  // The local calendar date, re-read in UTC, gives the weekday and month length without zone math.
  const weekday = new Date(Date.UTC(year, month - 1, day)).getUTCDay();
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return { year, month, day, weekday, minuteOfDay: hour * 60 + minute, daysInMonth };
}
