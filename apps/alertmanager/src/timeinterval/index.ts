export { isTimeIntervalActive, TimeIntervalSet } from './time-interval';
export { zonedTime } from './zoned-time';
export type { ZonedTime } from './zoned-time';
