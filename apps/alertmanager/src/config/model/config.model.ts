import type { GlobalConfig } from './global.model';
import type { InhibitRule } from './inhibit-rule.model';
import type { Receiver } from './receiver.model';
import type { Route } from './route.model';
import type { TimeInterval } from './time-interval.model';
import type { TracingConfig } from './tracing.model';

/**
 * A loaded Alertmanager configuration, with upstream's defaults and inheritance applied and
 * every cross-reference checked. Field names are the YAML keys, as the file format's schema.
 */
export interface AlertmanagerConfig {
  global: GlobalConfig;
  route: Route;
  inhibit_rules: InhibitRule[];
  receivers: Receiver[];
  /** Template globs, absolute (resolved against the config file's directory). */
  templates: string[];
  /** Deprecated spelling of `time_intervals`; the two share one namespace. */
  mute_time_intervals: TimeInterval[];
  time_intervals: TimeInterval[];
  tracing?: TracingConfig;
}
