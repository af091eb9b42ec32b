import { goQuote } from '../../labels/go-quote';

/** Go's `%q` of a rune: `'x'`, `'\n'`, `'\''`; the end of input (Go's -1, here `''`) prints as `'�'`. */
export function goQuoteRune(r: string): string {
  if (r === '') return `'\uFFFD'`;
  if (r === "'") return `'\\''`;
  if (r === '"') return `'"'`;
  return `'${goQuote(r).slice(1, -1)}'`;
}

/** Go's `%#U`: `U+007A 'z'`, without the character when it is not printable (`U+000A`). */
export function goRuneU(r: string): string {
  const code = r.codePointAt(0) as number;
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  const printable = r === '"' || r === '\\' || goQuote(r) === `"${r}"`;
  return printable ? `${hex} '${r}'` : hex;
}
