import type { LogFields, LogFormat, LogLevel } from './logger';

/** Renders one log line (without the newline) in Alertmanager's logfmt or JSON layout. */
export function formatLogLine(
  format: LogFormat,
  time: Date,
  level: LogLevel,
  msg: string,
  fields: LogFields,
): string {
  const entries: [string, string | number | boolean][] = [
    ['ts', time.toISOString()],
    ['level', level],
  ];
  for (const [key, value] of Object.entries(fields)) {
    if (value !== undefined && value !== null && key !== 'msg') entries.push([key, value]);
  }
  entries.splice(2, 0, ['msg', msg]);
  if (format === 'json') return JSON.stringify(Object.fromEntries(entries));
  return entries.map(([key, value]) => `${key}=${logfmtValue(value)}`).join(' ');
}

/** Quotes a logfmt value when it holds spaces, quotes, `=` or control characters. */
function logfmtValue(value: string | number | boolean): string {
  const text = String(value);
  if (text === '') return '""';
  if (!/[\s"=\\\u0000-\u001f]/.test(text)) return text;
  return JSON.stringify(text);
}
