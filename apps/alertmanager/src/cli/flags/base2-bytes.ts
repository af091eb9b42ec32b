/** Bytes per unit, powers of two whichever the spelling (`KB` is 1024 bytes, as `KiB`). */
const UNITS: Readonly<Record<string, number>> = {
  B: 1,
  KB: 2 ** 10,
  KiB: 2 ** 10,
  MB: 2 ** 20,
  MiB: 2 ** 20,
  GB: 2 ** 30,
  GiB: 2 ** 30,
  TB: 2 ** 40,
  TiB: 2 ** 40,
  PB: 2 ** 50,
  PiB: 2 ** 50,
  EB: 2 ** 60,
  EiB: 2 ** 60,
};

/**
 * A size such as `512MB` or `1GB512MB` in bytes, as Prometheus reads `--storage.tsdb.retention.size`:
 * a unit is required, units are powers of two, and errors are worded as its parser words them.
 */
export function parseBase2Bytes(text: string): number {
  let rest = text;
  let sign = 1;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    sign = rest[0] === '-' ? -1 : 1;
    rest = rest.slice(1);
  }
  if (rest === '0') return 0;
  if (rest === '') throw new Error(`units: invalid ${text}`);
  let total = 0;
  while (rest !== '') {
    const number = /^(\d+(?:\.\d*)?|\.\d+)/.exec(rest);
    if (number === null) throw new Error(`units: invalid ${text}`);
    rest = rest.slice(number[0].length);
    const unit = /^[^\d.]*/.exec(rest)?.[0] ?? '';
    rest = rest.slice(unit.length);
    const scale = UNITS[unit];
    if (scale === undefined) throw new Error(`units: unknown unit ${unit} in ${text}`);
    total += Number(number[0]) * scale;
  }
  return sign * Math.floor(total);
}
