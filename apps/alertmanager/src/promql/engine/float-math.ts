/** Neumaier's compensated addition: the next `[sum, compensation]`, as upstream's kahansum.Inc. */
export function kahanInc(inc: number, sum: number, c: number): [number, number] {
  const t = sum + inc;
  if (!Number.isFinite(t) && !Number.isNaN(t)) return [t, 0];
  if (Math.abs(sum) >= Math.abs(inc)) return [t, c + (sum - t + inc)];
  return [t, c + (inc - t + sum)];
}

/** Sorts ascending with NaN first, as upstream's value heaps order samples. */
export function compareValues(a: number, b: number): number {
  if (Number.isNaN(a)) return Number.isNaN(b) ? 0 : -1;
  if (Number.isNaN(b)) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The φ-quantile of values, interpolating between neighbours as upstream's `quantile`. */
export function quantile(q: number, values: number[]): number {
  if (values.length === 0 || Number.isNaN(q)) return NaN;
  if (q < 0) return -Infinity;
  if (q > 1) return Infinity;
  const sorted = [...values].sort(compareValues);
  const n = sorted.length;
  const rank = q * (n - 1);
  const lower = Math.max(0, Math.floor(rank));
  const upper = Math.min(n - 1, lower + 1);
  const weight = rank - Math.floor(rank);
  return sorted[lower] * (1 - weight) + sorted[upper] * weight;
}

/** Go's `strconv.FormatFloat(f, 'f', -1, 64)`: the shortest decimal, never an exponent. */
export function formatFloatPlain(f: number): string {
  if (Number.isNaN(f)) return 'NaN';
  if (!Number.isFinite(f)) return f > 0 ? '+Inf' : '-Inf';
  if (Object.is(f, -0)) return '-0';
  const text = String(f);
  if (!/e/i.test(text)) return text;
  const [mantissa, exponentText] = text.split(/e/i);
  const exponent = Number(exponentText);
  const negative = mantissa.startsWith('-');
  const digits = mantissa.replace('-', '').replace('.', '');
  const point = mantissa.replace('-', '').indexOf('.');
  const intDigits = (point < 0 ? mantissa.replace('-', '').length : point) + exponent;
  let out: string;
  if (intDigits <= 0) out = `0.${'0'.repeat(-intDigits)}${digits}`;
  else if (intDigits >= digits.length) out = digits + '0'.repeat(intDigits - digits.length);
  else out = `${digits.slice(0, intDigits)}.${digits.slice(intDigits)}`;
  return negative ? `-${out}` : out;
}

/** Go's `%f`: six decimals, `NaN`, `+Inf`, `-Inf`. */
export function goF(f: number): string {
  if (Number.isNaN(f)) return 'NaN';
  if (!Number.isFinite(f)) return f > 0 ? '+Inf' : '-Inf';
  return f.toFixed(6);
}

const MIN_NORMAL = 2.2250738585072014e-308;

/** Whether two floats are equal within a relative `epsilon` (both NaN counts as equal), as upstream. */
export function almostEqual(a: number, b: number, epsilon: number): boolean {
  if (Number.isNaN(a) && Number.isNaN(b)) return true;
  if (a === b) return true;
  const absSum = Math.abs(a) + Math.abs(b);
  const diff = Math.abs(a - b);
  if (a === 0 || b === 0 || absSum < MIN_NORMAL) return diff < epsilon * MIN_NORMAL;
  return diff / Math.min(absSum, Number.MAX_VALUE) < epsilon;
}

/** Prometheus's `FormatOpenMetricsFloat`: `1.0`, `0.25`, `1e-05`, `+Inf`, `NaN`. */
export function formatOpenMetricsFloat(f: number): string {
  if (Number.isNaN(f)) return 'NaN';
  if (!Number.isFinite(f)) return f > 0 ? '+Inf' : '-Inf';
  const text = goFormatG(f);
  return /[e.]/.test(text) ? text : `${text}.0`;
}

/** Go's `strconv.FormatFloat(f, 'g', -1, 64)`: exponent form below 1e-4 and from 1e21. */
export function goFormatG(f: number): string {
  if (Number.isNaN(f)) return 'NaN';
  if (!Number.isFinite(f)) return f > 0 ? '+Inf' : '-Inf';
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  const exponent = Math.floor(Math.log10(Math.abs(f)));
  if (exponent < -4 || exponent >= 21) {
    const [mantissa, exp] = f.toExponential().split('e');
    const sign = exp.startsWith('-') ? '-' : '+';
    const digits = exp.replace(/^[+-]/, '').padStart(2, '0');
    return `${mantissa}e${sign}${digits}`;
  }
  return String(f);
}

/** Go's `math.Pow`, which differs from `**` for a few special cases (`1 ** NaN` is 1 in Go). */
export function goPow(x: number, y: number): number {
  if (y === 0 || x === 1) return 1;
  if (x === -1 && !Number.isFinite(y) && !Number.isNaN(y)) return 1;
  return x ** y;
}
