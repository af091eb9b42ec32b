import type { LogFields, Logger } from '../logger';

/** One line a {@link RecordingLogger} received. */
export interface LoggedLine {
  level: string;
  msg: string;
  fields: LogFields;
}

/** A logger for tests that keeps every line. */
export function recordingLogger(lines: LoggedLine[] = [], base: LogFields = {}): Logger {
  const at =
    (level: string) =>
    (msg: string, fields: LogFields = {}) =>
      void lines.push({ level, msg, fields: { ...base, ...fields } });
  return {
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    with: (fields) => recordingLogger(lines, { ...base, ...fields }),
  };
}
