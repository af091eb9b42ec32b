import type { Labels } from '../labels';

/**
 * An exemplar of a series: a few labels (a trace id) and a value observed at a time, as
 * OpenMetrics exposes one after ` # ` on a counter or histogram bucket line.
 */
export interface Exemplar {
  readonly labels: Labels;
  readonly value: number;
  /** Milliseconds: the exemplar's own time, or the time of the sample it came with. */
  readonly timestampMs: number;
  /** Whether `timestampMs` is the exemplar's own (duplicates only compare it then). */
  readonly hasTimestamp: boolean;
}

/** The exemplars of one series, oldest first: what an exemplar query answers per series. */
export interface SeriesExemplars {
  readonly seriesLabels: Labels;
  readonly exemplars: readonly Exemplar[];
}

/** OpenMetrics' limit on an exemplar's label names and values together, in characters. */
export const EXEMPLAR_MAX_LABEL_SET_LENGTH = 128;

/** Why the store refuses an exemplar, in upstream's words. */
export const ExemplarRefusal = {
  outOfOrder: 'out of order exemplar',
  duplicate: 'duplicate exemplar',
  labelLength: `label length for exemplar exceeds maximum of ${EXEMPLAR_MAX_LABEL_SET_LENGTH} UTF-8 characters`,
  disabled: 'exemplar storage is disabled or max exemplars is less than or equal to 0',
} as const;

export type ExemplarRefusal = (typeof ExemplarRefusal)[keyof typeof ExemplarRefusal];

/**
 * Upstream's `Exemplar.Equals`: same labels and value, and the same time unless neither has a
 * time of its own (an exemplar exposed without one is the same one at every scrape).
 */
export function sameExemplar(a: Exemplar, b: Exemplar): boolean {
  if (a.labels.key !== b.labels.key) return false;
  if ((a.hasTimestamp || b.hasTimestamp) && a.timestampMs !== b.timestampMs) return false;
  return a.value === b.value;
}

/** The characters (code points) of an exemplar's label names and values together. */
export function labelSetLength(labels: Labels): number {
  let n = 0;
  for (let i = 0; i < labels.size; i++)
    n += codePoints(labels.names[i]) + codePoints(labels.values[i]);
  return n;
}

function codePoints(text: string): number {
  let n = text.length;
  // A surrogate pair is one character.
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xdc00 && c <= 0xdfff && i > 0) {
      const prev = text.charCodeAt(i - 1);
      if (prev >= 0xd800 && prev <= 0xdbff) n--;
    }
  }
  return n;
}
