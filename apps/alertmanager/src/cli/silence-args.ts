import { userInfo } from 'node:os';
import { parseDateTime, goTimeParseError } from '../time/go-date-time';
import { parseMatcher, type Matcher } from '../labels';
import { parseDuration } from '../time/duration';
import { AmtoolError } from './amtool-error';
import type { ListedMatcher } from './silence-output';

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * Parses matcher arguments as amtool does: a first argument that is not a matcher is the value
 * of `alertname`. A malformed matcher is an {@link AmtoolError}.
 */
export function matcherArgs(args: readonly string[]): Matcher[] {
  return args.map((arg, i) => {
    try {
      return parseMatcher(arg);
    } catch (error) {
      if (i === 0 && !/[=!~]/.test(arg)) return parseMatcher(`alertname=${JSON.stringify(arg)}`);
      throw new AmtoolError((error as Error).message);
    }
  });
}

/** A matcher in the API's JSON form. */
export function apiMatcher(m: Matcher): Required<ListedMatcher> {
  return { isEqual: m.isEqual, isRegex: m.isRegex, name: m.name, value: m.value };
}

/** An RFC 3339 time from a flag, in ms; Go's parse error otherwise. */
export function flagTime(text: string): number {
  const ms = RFC3339.test(text) ? parseDateTime(text) : undefined;
  if (ms === undefined) throw new AmtoolError(goTimeParseError(text, '2006-01-02T15:04:05Z07:00'));
  return ms;
}

/** A positive Prometheus duration from `--duration`, in ms. */
export function flagDuration(text: string): number {
  let ms: number;
  try {
    ms = parseDuration(text);
  } catch (error) {
    throw new AmtoolError((error as Error).message);
  }
  if (ms === 0) throw new AmtoolError('silence duration must be greater than 0');
  return ms;
}

/** The OS user name, amtool's default author. */
export function osUserName(): string {
  try {
    return userInfo().username;
  } catch {
    return 'unknown';
  }
}

/** A time in the API's form: RFC 3339 with milliseconds, UTC. */
export const apiTime = (ms: number): string => new Date(ms).toISOString();
