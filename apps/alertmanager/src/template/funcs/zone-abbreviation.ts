import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One local time type of a zone: its offset east of UTC (s), whether it is DST, its name. */
interface TimeType {
  offset: number;
  isDst: boolean;
  abbr: string;
}

/** What a zone's tzdata file says: transitions (s since the epoch), their types, the rule after. */
interface ZoneTable {
  transitions: number[];
  typeAt: number[];
  types: TimeType[];
  /** The POSIX TZ string for times after the last transition (`CET-1CEST,M3.5.0,M10.5.0/3`). */
  footer: string;
}

const tables = new Map<string, ZoneTable | undefined>();

/**
 * The abbreviation Go's `time` package prints for `MST` in a zone at a time: read, as Go reads
 * it, from the system's tzdata (`$ZONEINFO` or `/usr/share/zoneinfo`), so `Europe/Berlin` prints
 * `CET` or `CEST` and `Asia/Dubai` `+04`. `offsetMinutes` is the zone's offset at that time,
 * which picks between the standard and daylight names after the table's last transition.
 * Undefined when the zone has no readable tzdata file.
 */
export function zoneAbbreviation(
  zone: string,
  ms: number,
  offsetMinutes: number,
): string | undefined {
  const table = tableOf(zone);
  if (table === undefined || table.types.length === 0) return undefined;
  const t = Math.floor(ms / 1000);
  const { transitions } = table;
  if (transitions.length === 0 || t < transitions[0]) return firstStandard(table.types).abbr;
  if (t >= transitions[transitions.length - 1] && table.footer !== '') {
    const names = footerNames(table.footer);
    if (names !== undefined) {
      return names.dst !== undefined && offsetMinutes * 60 !== names.stdOffset
        ? names.dst
        : names.std;
    }
  }
  let lo = 0;
  let hi = transitions.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (transitions[mid] <= t) lo = mid;
    else hi = mid - 1;
  }
  return table.types[table.typeAt[lo]].abbr;
}

/** Before the first transition Go uses the first standard-time type (or the first type). */
function firstStandard(types: TimeType[]): TimeType {
  return types.find((x) => !x.isDst) ?? types[0];
}

function tableOf(zone: string): ZoneTable | undefined {
  if (tables.has(zone)) return tables.get(zone);
  let table: ZoneTable | undefined;
  // Zone names are paths under the tzdata directory; refuse anything that would leave it.
  if (/^[A-Za-z0-9_+-]+(\/[A-Za-z0-9_+-]+)*$/.test(zone)) {
    try {
      const dir = process.env['ZONEINFO'] || '/usr/share/zoneinfo';
      table = parseTzif(readFileSync(join(dir, zone)));
    } catch {
      table = undefined;
    }
  }
  tables.set(zone, table);
  return table;
}

/** Reads a TZif file (RFC 8536): the 64-bit block of version 2 and later, else version 1's. */
export function parseTzif(data: Buffer): ZoneTable | undefined {
  if (data.length < 44 || data.toString('latin1', 0, 4) !== 'TZif') return undefined;
  const version = data[4];
  const first = readBlock(data, 0, 4);
  if (first === undefined) return undefined;
  if (version === 0 || first.end >= data.length) return { ...first.table, footer: '' };
  const second = readBlock(data, first.end, 8);
  if (second === undefined) return { ...first.table, footer: '' };
  const rest = data.toString('latin1', second.end);
  const footer = /^\n([^\n]*)\n/.exec(rest)?.[1] ?? '';
  return { ...second.table, footer };
}

function readBlock(
  data: Buffer,
  at: number,
  timeSize: 4 | 8,
): { table: Omit<ZoneTable, 'footer'>; end: number } | undefined {
  if (data.length < at + 44 || data.toString('latin1', at, at + 4) !== 'TZif') return undefined;
  const count = (i: number) => data.readUInt32BE(at + 20 + i * 4);
  const [isUtCount, isStdCount, leapCount, timeCount, typeCount, charCount] = [
    0, 1, 2, 3, 4, 5,
  ].map(count);
  let p = at + 44;
  const size =
    timeCount * timeSize +
    timeCount +
    typeCount * 6 +
    charCount +
    leapCount * (timeSize + 4) +
    isStdCount +
    isUtCount;
  if (data.length < p + size) return undefined;
  const transitions: number[] = [];
  for (let i = 0; i < timeCount; i++, p += timeSize) {
    transitions.push(timeSize === 8 ? Number(data.readBigInt64BE(p)) : data.readInt32BE(p));
  }
  const typeAt = [...data.subarray(p, p + timeCount)];
  p += timeCount;
  const raw: { offset: number; isDst: boolean; index: number }[] = [];
  for (let i = 0; i < typeCount; i++, p += 6) {
    raw.push({ offset: data.readInt32BE(p), isDst: data[p + 4] === 1, index: data[p + 5] });
  }
  const chars = data.toString('latin1', p, p + charCount);
  const types = raw.map(({ offset, isDst, index }) => ({
    offset,
    isDst,
    abbr: chars.slice(
      index,
      chars.indexOf('\0', index) >= 0 ? chars.indexOf('\0', index) : undefined,
    ),
  }));
  return { table: { transitions, typeAt, types }, end: at + 44 + size };
}

/**
 * The standard and daylight names of a POSIX TZ string and the standard offset (s east of UTC):
 * `CET-1CEST,...` is CET at +3600 and CEST; `<+04>-4` is `+04` at +14400 without DST.
 */
function footerNames(tz: string): { std: string; stdOffset: number; dst?: string } | undefined {
  const name = String.raw`(<[^>]*>|[A-Za-z]{3,})`;
  const offset = String.raw`([+-]?\d{1,2}(?::\d{1,2}(?::\d{1,2})?)?)`;
  const m = new RegExp(`^${name}${offset}${name}?`).exec(tz);
  if (m === null) return undefined;
  const unquote = (s: string) => s.replace(/^<|>$/g, '');
  const [h, min = '0', s = '0'] = m[2].replace(/^[+-]/, '').split(':');
  const west = (Number(h) * 3600 + Number(min) * 60 + Number(s)) * (m[2].startsWith('-') ? -1 : 1);
  return {
    std: unquote(m[1]),
    stdOffset: -west,
    dst: m[3] === undefined ? undefined : unquote(m[3]),
  };
}
