import { formatLogLine } from './format-log-line';
import { LOG_LEVELS, type LogFields, type LogFormat, type Logger, type LogLevel } from './logger';

/** Where log lines go: stderr by default, any sink in tests. */
export type LogSink = (line: string) => void;

/** A {@link Logger} that writes formatted lines at or above `level` to a sink. */
export class StreamLogger implements Logger {
  private readonly threshold: number;

  constructor(
    private readonly level: LogLevel,
    private readonly format: LogFormat,
    private readonly sink: LogSink = (line) => process.stderr.write(`${line}\n`),
    private readonly fields: LogFields = {},
    private readonly now: () => number = Date.now,
  ) {
    this.threshold = LOG_LEVELS.indexOf(level);
  }

  debug(msg: string, fields?: LogFields): void {
    this.write('debug', msg, fields);
  }

  info(msg: string, fields?: LogFields): void {
    this.write('info', msg, fields);
  }

  warn(msg: string, fields?: LogFields): void {
    this.write('warn', msg, fields);
  }

  error(msg: string, fields?: LogFields): void {
    this.write('error', msg, fields);
  }

  with(fields: LogFields): Logger {
    return new StreamLogger(
      this.level,
      this.format,
      this.sink,
      { ...this.fields, ...fields },
      this.now,
    );
  }

  private write(level: LogLevel, msg: string, fields?: LogFields): void {
    if (LOG_LEVELS.indexOf(level) < this.threshold) return;
    const line = formatLogLine(this.format, new Date(this.now()), level, msg, {
      ...this.fields,
      ...fields,
    });
    this.sink(line);
  }
}
