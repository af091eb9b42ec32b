import { goQuote } from './go-quote';
import type { LabelSet } from './label-name';

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
