import { formatFloat } from '../../template/funcs/go-float';
import type { Labels } from '../../tsdb/labels';
import type { Exemplar, SeriesExemplars } from '../../tsdb/exemplars';
import { nextTurn } from '../../time/next-turn';

/** How long a slice of writing the answer runs before the event loop turns. */
const SLICE_MS = 5;

/**
 * The `data` of an exemplar query as Prometheus 2.42 writes it: per series `seriesLabels` and
 * `exemplars`, each with its `labels`, `value` as a string and `timestamp` in seconds, written
 * in slices that yield to the event loop.
 */
export async function exemplarsJson(found: readonly SeriesExemplars[]): Promise<string> {
  const series: string[] = [];
  let sliceStart = performance.now();
  for (const s of found) {
    series.push(seriesJson(s));
    // A store's worth of exemplars is megabytes of JSON: written in slices of the event loop.
    if (series.length % 64 === 0 && performance.now() - sliceStart > SLICE_MS) {
      await nextTurn();
      sliceStart = performance.now();
    }
  }
  return `[${series.join(',')}]`;
}

function seriesJson(s: SeriesExemplars): string {
  return `{"seriesLabels":${labelsJson(s.seriesLabels)},"exemplars":[${s.exemplars.map(exemplarJson).join(',')}]}`;
}

function exemplarJson(e: Exemplar): string {
  return `{"labels":${labelsJson(e.labels)},"value":"${exemplarValue(e.value)}","timestamp":${timestampSeconds(e.timestampMs)}}`;
}

/** A label set as Go's `json.Marshal` of a map writes it: keys sorted, `<`, `>`, `&` escaped. */
function labelsJson(labels: Labels): string {
  return JSON.stringify(labels.toRecord())
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** An exemplar's value as 2.42 writes it: Go's shortest `%f`, or `%e` below 1e-6 and from 1e21. */
export function exemplarValue(v: number): string {
  const abs = Math.abs(v);
  return formatFloat(v, abs !== 0 && (abs < 1e-6 || abs >= 1e21) ? 'e' : 'f', -1);
}

/** Milliseconds as 2.42 writes a timestamp: seconds, and any milliseconds as three digits. */
export function timestampSeconds(ms: number): string {
  const sign = ms < 0 ? '-' : '';
  const abs = Math.abs(ms);
  const fraction = abs % 1000;
  const whole = `${sign}${(abs - fraction) / 1000}`;
  return fraction === 0 ? whole : `${whole}.${String(fraction).padStart(3, '0')}`;
}
