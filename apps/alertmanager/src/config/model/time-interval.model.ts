/** An inclusive range of integers, such as `monday:friday` (1..5) or `-3:-1` for days of month. */
export interface InclusiveRange {
  begin: number;
  end: number;
}

/** A range of minutes of the day: start inclusive, end exclusive (`24:00` is 1440). */
export interface TimeOfDayRange {
  start_minute: number;
  end_minute: number;
}

/**
 * One spec of a time interval. Within a field any range may match; across fields all must
 * match; a missing (empty) field matches anything. Weekdays count from Sunday = 0.
 */
export interface TimeIntervalSpec {
  times: TimeOfDayRange[];
  weekdays: InclusiveRange[];
  days_of_month: InclusiveRange[];
  months: InclusiveRange[];
  years: InclusiveRange[];
  /** IANA zone name; undefined means UTC. */
  location?: string;
}

/** A named time interval from `time_intervals` or the deprecated `mute_time_intervals`. */
export interface TimeInterval {
  name: string;
  time_intervals: TimeIntervalSpec[];
}
