// Series as the graph page names and plots them.
import type { LabelSet, QueryData, SamplePair } from '../api';

/** `name{label="value", ...}`, labels in the answer's order; `{}` for a series without labels. */
export function seriesName(metric: LabelSet): string {
  const labels = Object.entries(metric)
    .filter(([name]) => name !== '__name__')
    .map(([name, value]) => `${name}=${JSON.stringify(value)}`);
  return `${metric['__name__'] ?? ''}{${labels.join(', ')}}`;
}

/** A sample's value for a chart: a number, or null for NaN and the infinities (drawn as gaps). */
export function plottable(text: string): number | null {
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
}

/** How many series a result has, as the panel's statistics count them. */
export function resultSeries(data: QueryData): number {
  return data.resultType === 'scalar' || data.resultType === 'string' ? 1 : data.result.length;
}

/** One matrix series as `value @time` lines, as the table shows a range vector. */
export function sampleLines(values: SamplePair[]): string {
  return values.map(([t, v]) => `${v} @${t}`).join('\n');
}
