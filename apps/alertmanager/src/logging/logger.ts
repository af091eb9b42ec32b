/** Severity of a log line, ordered from most to least verbose. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** The output formats Alertmanager offers through `--log.format`. */
export type LogFormat = 'logfmt' | 'json';

/** Structured key/value context attached to a log line. */
export type LogFields = Record<string, string | number | boolean | undefined | null>;

/** A structured logger; every component receives one, with its own fixed fields. */
export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  /** A logger that adds `fields` to every line, e.g. `{ component: 'dispatcher' }`. */
  with(fields: LogFields): Logger;
}

/** Injection token for {@link Logger}. */
export const Logger = Symbol('Logger');

/** Level names in verbosity order, as accepted by `--log.level`. */
export const LOG_LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];
