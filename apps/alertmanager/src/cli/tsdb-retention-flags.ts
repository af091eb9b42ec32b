import { parseDuration } from '../time/duration';
import { parseBase2Bytes } from './flags/base2-bytes';
import { CommandLineError, type ParsedCommandLine } from './flags/flag-spec';

/** The metric store's retention when no retention flag is given, as Prometheus's: 15d. */
const TSDB_DEFAULT_RETENTION_MS = 15 * 24 * 3_600_000;

/**
 * The metric store's retention as Prometheus sets it: `.time` (or the deprecated flag it
 * overrides) when given; 15d when no retention flag is given; none by time when only `.size` is.
 */
export function tsdbRetention(parsed: ParsedCommandLine): {
  tsdbRetentionTime: number;
  tsdbRetentionSize: number;
} {
  const given = (name: string) => (parsed.flags[name] as string | undefined) !== undefined;
  const sizeText = parsed.flags['storage.tsdb.retention.size'] as string | undefined;
  let size = 0;
  if (sizeText !== undefined) {
    try {
      size = Math.max(0, parseBase2Bytes(sizeText));
    } catch (error) {
      throw new CommandLineError((error as Error).message);
    }
  }
  const timeFlag = given('storage.tsdb.retention.time')
    ? 'storage.tsdb.retention.time'
    : given('storage.tsdb.retention')
      ? 'storage.tsdb.retention'
      : undefined;
  let time = 0;
  if (timeFlag !== undefined) {
    try {
      time = parseDuration(parsed.flags[timeFlag] as string);
    } catch (error) {
      // Prometheus's parser says it all: `not a valid duration string: "abc"`.
      throw new CommandLineError((error as Error).message);
    }
  }
  if (time === 0 && size === 0) time = TSDB_DEFAULT_RETENTION_MS;
  return { tsdbRetentionTime: time === 0 ? Infinity : time, tsdbRetentionSize: size };
}
