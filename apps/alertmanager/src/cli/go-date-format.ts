const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const TOKENS =
  /2006|January|Jan|Monday|Mon|MST|Z07:00|-07:00|-0700|\.000|01|02|03|04|05|06|15|PM|_2|1|2|3/g;

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/**
 * Formats a time (ms) in UTC with a Go reference layout such as amtool's default
 * `2006-01-02 15:04:05 MST`. Covers the layout elements people put in `--date.format`.
 */
export function formatGoDate(ms: number, layout: string): string {
  const d = new Date(ms);
  const h = d.getUTCHours();
  const values: Record<string, string> = {
    '2006': pad(d.getUTCFullYear(), 4),
    '06': pad(d.getUTCFullYear() % 100),
    January: MONTHS[d.getUTCMonth()],
    Jan: MONTHS[d.getUTCMonth()].slice(0, 3),
    Monday: DAYS[d.getUTCDay()],
    Mon: DAYS[d.getUTCDay()].slice(0, 3),
    MST: 'UTC',
    'Z07:00': 'Z',
    '-07:00': '+00:00',
    '-0700': '+0000',
    '.000': `.${pad(d.getUTCMilliseconds(), 3)}`,
    '01': pad(d.getUTCMonth() + 1),
    '1': String(d.getUTCMonth() + 1),
    '02': pad(d.getUTCDate()),
    _2: String(d.getUTCDate()).padStart(2, ' '),
    '2': String(d.getUTCDate()),
    '15': pad(h),
    '03': pad(h % 12 || 12),
    '3': String(h % 12 || 12),
    '04': pad(d.getUTCMinutes()),
    '05': pad(d.getUTCSeconds()),
    PM: h < 12 ? 'AM' : 'PM',
  };
  return layout.replace(TOKENS, (token) => values[token]);
}
