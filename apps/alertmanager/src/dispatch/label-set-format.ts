import type { LabelSet } from '../labels';

/** Compares two strings by Unicode code point, which is Go's byte-wise UTF-8 order. */
export function compareGoStrings(a: string, b: string): number {
  if (a === b) return 0;
  const ai = a[Symbol.iterator]();
  const bi = b[Symbol.iterator]();
  for (;;) {
    const x = ai.next();
    const y = bi.next();
    if (x.done || y.done) return x.done ? (y.done ? 0 : -1) : 1;
    const d = (x.value.codePointAt(0) as number) - (y.value.codePointAt(0) as number);
    if (d !== 0) return d;
  }
}

/** Label names of a set in Go's sort order. */
export function sortedLabelNames(labels: LabelSet): string[] {
  return Object.keys(labels).sort(compareGoStrings);
}

function hex(code: number, width: number): string {
  return code.toString(16).padStart(width, '0');
}

const SIMPLE_ESCAPES: Record<string, string> = {
  '\x07': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\v': '\\v',
  '\\': '\\\\',
  '"': '\\"',
};

/**
 * Go's `strconv.Quote`: double quotes, the C-style escapes, and `\x`/`\u`/`\U` for
 * characters that are not printable. Printable non-ASCII characters stay as they are.
 */
export function goQuote(value: string): string {
  let out = '"';
  for (const ch of value) {
    const code = ch.codePointAt(0) as number;
    if (SIMPLE_ESCAPES[ch]) out += SIMPLE_ESCAPES[ch];
    else if (code < 0x20 || code === 0x7f) out += `\\x${hex(code, 2)}`;
    else if (code >= 0xd800 && code <= 0xdfff) out += '\\ufffd';
    else if (code >= 0x80 && !/[\p{L}\p{M}\p{N}\p{P}\p{S}\u0020]/u.test(ch)) {
      out += code > 0xffff ? `\\U${hex(code, 8)}` : `\\u${hex(code, 4)}`;
    } else out += ch;
  }
  return `${out}"`;
}

/**
 * Prints a label set as Prometheus' `model.LabelSet.String()`: names sorted, `name="value"`
 * with Go quoting, joined by `", "`, e.g. `{alertname="DB", team="db"}`. Group keys use it.
 */
export function formatLabelSet(labels: LabelSet): string {
  return `{${sortedLabelNames(labels)
    .map((name) => `${name}=${goQuote(labels[name])}`)
    .join(', ')}}`;
}

/**
 * Prometheus' `LabelSet.Before`: a smaller set sorts first; sets of equal size compare their
 * values label by label in name order, a missing label sorting first.
 */
export function labelSetBefore(a: LabelSet, b: LabelSet): number {
  const an = Object.keys(a).length;
  const bn = Object.keys(b).length;
  if (an !== bn) return an - bn;
  const names = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort(compareGoStrings);
  for (const name of names) {
    if (!(name in a)) return -1;
    if (!(name in b)) return 1;
    const d = compareGoStrings(a[name], b[name]);
    if (d !== 0) return d;
  }
  return 0;
}
