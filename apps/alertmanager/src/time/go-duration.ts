const NS_PER_UNIT: Readonly<Record<string, number>> = {
  ns: 1,
  us: 1e3,
  µs: 1e3,
  μs: 1e3,
  ms: 1e6,
  s: 1e9,
  m: 60e9,
  h: 3600e9,
};

/**
 * Parses a Go `time.Duration` string (`1.5s`, `300ms`, `-1h30m`, `0`) into milliseconds, with the
 * messages of Go's `time.ParseDuration`. Go's YAML decoder reads `time.Duration` fields this way,
 * unlike Prometheus durations: fractions and `ns`/`us` are allowed, `d`/`w`/`y` are not.
 */
export function parseGoDuration(text: string): number {
  const invalid = () => new Error(`time: invalid duration ${JSON.stringify(text)}`);
  let rest = text;
  let sign = 1;
  if (rest[0] === '-' || rest[0] === '+') {
    sign = rest[0] === '-' ? -1 : 1;
    rest = rest.slice(1);
  }
  if (rest === '0') return 0;
  if (rest === '') throw invalid();
  let ns = 0;
  while (rest !== '') {
    const number = /^(\d*)(?:\.(\d*))?/.exec(rest) as RegExpExecArray;
    if (number[0] === '' || number[0] === '.') throw invalid();
    rest = rest.slice(number[0].length);
    const unit = /^[^\d.]*/.exec(rest)?.[0] ?? '';
    if (unit === '') throw new Error(`time: missing unit in duration ${JSON.stringify(text)}`);
    if (!Object.hasOwn(NS_PER_UNIT, unit)) {
      throw new Error(
        `time: unknown unit ${JSON.stringify(unit)} in duration ${JSON.stringify(text)}`,
      );
    }
    rest = rest.slice(unit.length);
    ns += Number(`${number[1] || '0'}.${number[2] || '0'}`) * NS_PER_UNIT[unit];
  }
  // Go's int64 nanoseconds overflow past about 292 years.
  if (ns > 2 ** 63) throw invalid();
  return (sign * ns) / 1e6;
}

/** Go's `time.Duration.String`, e.g. `1h2m3.5s`, `1.5ms`, `0s`. */
export function formatGoDuration(ms: number): string {
  if (ms === 0) return '0s';
  const sign = ms < 0 ? '-' : '';
  const abs = Math.abs(ms);
  if (abs < 1) return `${sign}${formatTrim(abs * 1000)}µs`;
  if (abs < 1000) return `${sign}${formatTrim(abs)}ms`;
  const h = Math.floor(abs / 3_600_000);
  const m = Math.floor((abs % 3_600_000) / 60_000);
  const s = (abs % 60_000) / 1000;
  return `${sign}${h ? `${h}h` : ''}${h || m ? `${m}m` : ''}${formatTrim(s)}s`;
}

const formatTrim = (n: number) => String(Math.round(n * 1e6) / 1e6);
