import { formatBase2Bytes } from '../config/prometheus/base2-bytes-text';
import { formatDuration, parseDuration } from '../time/duration';
import { parseBase2Bytes } from './flags/base2-bytes';
import type { CommandSpec, ParsedCommandLine } from './flags/flag-spec';

/**
 * Flags that Prometheus reads as durations (`model.Duration`): it prints their value normalised
 * (`120s` as `2m`, unset as `0s`).
 */
const PROMETHEUS_DURATION_FLAGS = new Set([
  'query.lookback-delta',
  'query.timeout',
  'rules.alert.resend-delay',
  'rules.alert.for-outage-tolerance',
  'rules.alert.for-grace-period',
  'storage.tsdb.retention',
  'storage.tsdb.retention.time',
]);

/** Flags Prometheus reads as sizes (`units.Base2Bytes`): printed as `512MiB`, unset as `0B`. */
const PROMETHEUS_SIZE_FLAGS = new Set(['storage.tsdb.retention.size']);

/**
 * Every flag of the command line and its effective value as text, as `/api/v1/status/flags`
 * answers (Prometheus's map of flag name to `Value.String()`): defaults filled in, booleans as
 * `true`/`false`, repeated flags joined by commas, unset ones `''`; the flags that only print and
 * exit (`--version`, like kingpin's own) are left out. Values were checked when the server
 * options were built from them.
 */
export function statusFlags(
  command: CommandSpec,
  parsed: ParsedCommandLine,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const flag of command.flags ?? []) {
    if (flag.exits) continue;
    const value = parsed.flags[flag.name];
    if (PROMETHEUS_DURATION_FLAGS.has(flag.name)) {
      out[flag.name] = formatDuration(typeof value === 'string' ? parseDuration(value) : 0);
    } else if (PROMETHEUS_SIZE_FLAGS.has(flag.name)) {
      out[flag.name] = formatBase2Bytes(typeof value === 'string' ? parseBase2Bytes(value) : 0);
    } else if (Array.isArray(value)) out[flag.name] = value.join(',');
    else out[flag.name] = value === undefined ? '' : String(value);
  }
  return out;
}
