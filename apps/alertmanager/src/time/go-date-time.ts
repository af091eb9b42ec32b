const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(Z|[+-]\d{2}:\d{2})?| (\d{2}):(\d{2}):(\d{2}))$/;

/**
 * Parses a date-time as go-openapi's `strfmt.DateTime` does: RFC 3339 with or without
 * fractional seconds, `2006-01-02T15:04:05` and `2006-01-02T15:04` (UTC), and
 * `2006-01-02 15:04:05`. Returns ms (Go's zero time is `GO_ZERO_TIME`), or undefined when
 * nothing matched.
 */
export function parseDateTime(text: string): number | undefined {
  const m = DATE_TIME.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, h1, mi1, s1, frac, zone, h2, mi2, s2] = m;
  const [h, mi, s] = h1 !== undefined ? [h1, mi1, s1 ?? '0'] : [h2, mi2, s2];
  if (h1 !== undefined && s1 === undefined && zone !== undefined && zone !== 'Z') return undefined;
  const fields = [Number(mo), Number(d), Number(h), Number(mi), Number(s)];
  if (fields[0] < 1 || fields[0] > 12 || fields[1] < 1) return undefined;
  // Go checks the day against the month's length once the whole value is read: 2027-02-30 fails.
  if (fields[1] > daysIn(Number(y), fields[0])) return undefined;
  if (fields[2] > 23 || fields[3] > 59 || fields[4] > 59) return undefined;
  const date = new Date(0);
  date.setUTCFullYear(Number(y), fields[0] - 1, fields[1]);
  date.setUTCHours(
    fields[2],
    fields[3],
    fields[4],
    Number((frac ?? '0').padEnd(3, '0').slice(0, 3)),
  );
  let ms = date.getTime();
  if (zone && zone !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    ms -= sign * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6))) * 60_000;
  }
  return ms;
}

const ELEMENTS: Record<string, { digits: [number, number]; range?: [number, number, string] }> = {
  '2006': { digits: [4, 4] },
  '01': { digits: [2, 2], range: [1, 12, 'month'] },
  '02': { digits: [2, 2], range: [1, 31, 'day'] },
  '15': { digits: [1, 2], range: [0, 23, 'hour'] },
  '04': { digits: [2, 2], range: [0, 59, 'minute'] },
  '05': { digits: [2, 2], range: [0, 59, 'second'] },
};

/**
 * The text of Go's `time.Parse(layout, value)` error for a value that does not fit the layout:
 * `parsing time "v" as "layout": cannot parse "rest" as "element"`, or an out-of-range field.
 * Supports the layout elements of the formats the API accepts.
 */
export function goTimeParseError(value: string, layout: string): string {
  const head = `parsing time ${JSON.stringify(value)}`;
  const cannot = (rest: string, element: string) =>
    `${head} as ${JSON.stringify(layout)}: cannot parse ${JSON.stringify(rest)} as ${JSON.stringify(element)}`;
  const parts = layout.split(/(2006|01|02|15|04|05|Z07:00)/).filter((p) => p !== '');
  let rest = value;
  for (const part of parts) {
    const element = ELEMENTS[part];
    if (part === 'Z07:00') {
      const m = /^(Z|[+-]\d{2}:\d{2})/.exec(rest);
      if (!m) return cannot(rest, part);
      rest = rest.slice(m[0].length);
    } else if (element) {
      const m = new RegExp(`^\\d{${element.digits[0]},${element.digits[1]}}`).exec(rest);
      if (!m) return cannot(rest, part);
      const n = Number(m[0]);
      if (element.range && (n < element.range[0] || n > element.range[1])) {
        return `${head}: ${element.range[2]} out of range`;
      }
      rest = rest.slice(m[0].length);
      if (part === '05') rest = rest.replace(/^[.,]\d+/, '');
    } else if (rest.startsWith(part)) {
      rest = rest.slice(part.length);
    } else {
      return cannot(rest, part);
    }
  }
  if (rest !== '') return `${head}: extra text: ${JSON.stringify(rest)}`;
  return dayOutOfRange(value) ? `${head}: day out of range` : `${head}: invalid`;
}

/** Days in a month of the proleptic Gregorian calendar, as Go's `daysIn`. */
function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function dayOutOfRange(value: string): boolean {
  const m = /^"?(\d{4})-(\d{2})-(\d{2})/.exec(value);
  return m !== null && Number(m[3]) > daysIn(Number(m[1]), Number(m[2]));
}

/**
 * Go's `time.RFC3339Nano` in UTC, as Go's JSON writes a `time.Time`: trailing zeros of the
 * fraction dropped, no fraction when it is zero (`2024-01-02T03:04:05.5Z`).
 */
export function formatRfc3339Nano(ms: number): string {
  const text = new Date(ms).toISOString();
  const fraction = text.slice(20, 23).replace(/0+$/, '');
  return `${text.slice(0, 19)}${fraction === '' ? '' : `.${fraction}`}Z`;
}
