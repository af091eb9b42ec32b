// A range query's matrix laid out for uPlot: one shared time axis, one array per series.
import type { LabelSet, SamplePair } from '../api';
import { plottable } from './series';

/** The window a range query asked for, in seconds, as the API takes it. */
export interface QueryWindow {
  start: number;
  end: number;
  step: number;
}

/** The columns uPlot draws, and the samples as answered (stacked lines draw running sums). */
export interface ChartColumns {
  times: number[];
  drawn: (number | null)[][];
  values: (number | null)[][];
}

/**
 * Puts every series' samples on the query's steps (the API answers at `start + k * step`), a
 * missing step left null so the line has a gap there. Stacked, each series is drawn on top of
 * the ones before it, and a gap adds nothing.
 */
export function chartColumns(
  series: { metric: LabelSet; values: SamplePair[] }[],
  window: QueryWindow,
  stacked: boolean,
): ChartColumns {
  const count = Math.floor((window.end - window.start) / window.step + 1e-9) + 1;
  const times = Array.from({ length: count }, (_, i) => window.start + i * window.step);
  const values = series.map((s) => {
    const column = new Array<number | null>(count).fill(null);
    for (const [t, v] of s.values) {
      const i = Math.round((t - window.start) / window.step);
      if (i >= 0 && i < count) column[i] = plottable(v);
    }
    return column;
  });
  if (!stacked) return { times, drawn: values, values };
  const sums = new Array<number>(count).fill(0);
  const drawn = values.map((column) =>
    column.map((v, i) => {
      if (v === null) return null;
      sums[i] += v;
      return sums[i];
    }),
  );
  return { times, drawn, values };
}
