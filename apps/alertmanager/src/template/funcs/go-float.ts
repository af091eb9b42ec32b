/** Go's exponent form: at least two digits, always signed (`1e+06`). */
function goExponent(exp: number): string {
  const sign = exp < 0 ? '-' : '+';
  return `e${sign}${String(Math.abs(exp)).padStart(2, '0')}`;
}

/**
 * JS rounds an exact tie away from zero; Go rounds it to even. `exact` is the value with many
 * more digits than kept (`keep` of them): when the rest is exactly a half, the rounded text is
 * replaced by the truncated one if its last kept digit is even.
 */
function halfEven(rounded: string, exact: string, keep: number): string {
  const digitsOnly = exact.replace(/[^0-9]/g, '');
  const rest = digitsOnly.slice(keep);
  if (!/^50*$/.test(rest) || Number(digitsOnly[keep - 1] ?? 0) % 2 === 1) return rounded;
  let kept = 0;
  let out = '';
  for (const ch of exact) {
    if (/[0-9]/.test(ch)) {
      if (kept === keep) break;
      kept++;
    }
    out += ch;
  }
  return out.replace(/\.$/, '');
}

/** `v.toFixed(prec)` with Go's rounding of exact ties. */
function toFixed(v: number, prec: number): string {
  const exact = v.toFixed(Math.min(prec + 30, 100));
  const intDigits = exact.indexOf('.') < 0 ? exact.length : exact.indexOf('.');
  return halfEven(v.toFixed(prec), exact, intDigits + prec);
}

/** The significant digits and decimal exponent of `v`, to `prec` digits (-1: shortest). */
function digits(v: number, prec: number): { digits: string; exp: number } {
  let text = prec < 0 ? v.toExponential() : v.toExponential(Math.max(prec - 1, 0));
  if (prec > 0) {
    const exact = v.toExponential(Math.min(prec + 30, 100));
    const rounded = text.split('e')[0];
    const mantissa = halfEven(rounded, exact.split('e')[0], prec);
    // A tie kept down keeps the exact exponent; otherwise the rounded text stands, with its
    // own exponent (rounding 999.95 up carries into a new digit: 1.000e+3).
    if (mantissa !== rounded) text = `${mantissa}e${exact.split('e')[1]}`;
  }
  const [mantissa, exp] = text.split('e');
  return { digits: mantissa.replace('.', '').replace('-', ''), exp: Number(exp) };
}

function special(v: number): string | undefined {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return '+Inf';
  if (v === -Infinity) return '-Inf';
  return undefined;
}

/**
 * Go's `strconv.FormatFloat(v, fmt, prec, 64)` for `e`, `f` and `g` (the forms `printf` and
 * `%v` use); `prec` -1 means the fewest digits that read back as the same number.
 */
export function formatFloat(v: number, fmt: 'e' | 'f' | 'g', prec: number): string {
  const odd = special(v);
  if (odd) return odd;
  const sign = v < 0 || Object.is(v, -0) ? '-' : '';
  const abs = Math.abs(v);
  if (fmt === 'f') {
    if (prec >= 0) return sign + toFixed(abs, prec);
    const { digits: d, exp } = digits(abs, -1);
    return sign + fixed(d, exp, Math.max(d.length - exp - 1, 0));
  }
  if (fmt === 'e') {
    const { digits: d, exp } = digits(abs, prec < 0 ? -1 : prec + 1);
    const frac = prec < 0 ? d.slice(1) : d.slice(1).padEnd(prec, '0');
    return `${sign}${d[0]}${frac ? `.${frac}` : ''}${goExponent(abs === 0 ? 0 : exp)}`;
  }
  const shortest = prec < 0;
  let p = prec === 0 ? 1 : prec;
  const raw = digits(abs, shortest ? -1 : p);
  const d = raw.digits.replace(/0+$/, '') || '0';
  const exp = abs === 0 ? 0 : raw.exp;
  let eprec = shortest ? 6 : p;
  if (!shortest && eprec > d.length && d.length >= exp + 1) eprec = d.length;
  if (shortest) p = d.length;
  if (exp < -4 || exp >= eprec) {
    return `${sign}${d[0]}${d.length > 1 ? `.${d.slice(1)}` : ''}${goExponent(exp)}`;
  }
  return sign + fixed(d, exp, Math.max(d.length - exp - 1, 0));
}

/** Digits `d` with decimal exponent `exp` written out with `frac` fraction digits. */
function fixed(d: string, exp: number, frac: number): string {
  const intDigits = exp + 1;
  let whole: string;
  let rest: string;
  if (intDigits <= 0) {
    whole = '0';
    rest = '0'.repeat(-intDigits) + d;
  } else {
    whole = d.slice(0, intDigits).padEnd(intDigits, '0');
    rest = d.slice(intDigits);
  }
  rest = rest.padEnd(frac, '0').slice(0, frac);
  return frac > 0 ? `${whole}.${rest}` : whole;
}
