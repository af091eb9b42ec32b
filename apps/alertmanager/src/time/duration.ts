/** A duration string that Prometheus would reject; the message is upstream's text. */
export class DurationParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DurationParseError';
  }
}

const MS_PER_UNIT: ReadonlyArray<readonly [string, bigint]> = [
  ['y', 365n * 24n * 3_600_000n],
  ['w', 7n * 24n * 3_600_000n],
  ['d', 24n * 3_600_000n],
  ['h', 3_600_000n],
  ['m', 60_000n],
  ['s', 1_000n],
  ['ms', 1n],
];

// Go's time.Duration is int64 nanoseconds, which caps Prometheus durations at about 292 years.
const MAX_MS = (2n ** 63n - 1n) / 1_000_000n;

/**
 * Parses a Prometheus duration (`30s`, `5m`, `1h30m`, `1d`, `1w`, `1y`, `250ms`, or `0`) into
 * milliseconds. Units must appear from largest to smallest, each at most once.
 */
export function parseDuration(text: string): number {
  if (text === '0') return 0;
  if (text === '') throw new DurationParseError('empty duration string');
  const invalid = () =>
    new DurationParseError(`not a valid duration string: ${JSON.stringify(text)}`);
  let total = 0n;
  let lastUnit = -1;
  const re = /(\d+)([a-z]+)/gy;
  let m: RegExpExecArray | null;
  let consumed = 0;
  while ((m = re.exec(text)) !== null) {
    consumed = re.lastIndex;
    const unit = MS_PER_UNIT.findIndex(([name]) => name === m?.[2]);
    if (unit <= lastUnit) throw invalid();
    lastUnit = unit;
    total += BigInt(m[1]) * MS_PER_UNIT[unit][1];
    if (total > MAX_MS) throw new DurationParseError('duration out of range');
  }
  if (consumed !== text.length || lastUnit < 0) throw invalid();
  return Number(total);
}

/**
 * Formats milliseconds the way Prometheus prints durations: `0s`, `5m`, `1h30m`, `90d`. Years
 * and weeks are used only when they divide the duration exactly, as upstream does.
 */
export function formatDuration(ms: number): string {
  if (ms === 0) return '0s';
  let rest = BigInt(Math.abs(Math.trunc(ms)));
  let out = ms < 0 ? '-' : '';
  for (const [unit, size] of MS_PER_UNIT) {
    if ((unit === 'y' || unit === 'w') && rest % size !== 0n) continue;
    if (rest >= size) {
      out += `${rest / size}${unit}`;
      rest %= size;
    }
  }
  return out;
}
