// A range's exemplars as points on the graph: where each goes, which line it belongs to, and how
// far the value axis must reach so that every one of them is seen.
import { labelsAgree, TRACE_ID_LABEL, type SeriesExemplars } from '../exemplar-traces';

type Labels = Record<string, string>;

/** One exemplar where the graph draws it. */
export interface ExemplarPoint {
  /** Seconds, the chart's time axis. */
  time: number;
  value: number;
  /** The value as the API wrote it, shown as is (no rounding of a latency). */
  valueText: string;
  /**
   * The drawn line it belongs to, by index, for its colour: the one line whose labels agree with
   * its series'; undefined when none or several do (drawn neutral rather than misattributed).
   */
  line: number | undefined;
  seriesLabels: Labels;
  labels: Labels;
  traceId: string | undefined;
}

/**
 * The exemplars that can be drawn over the lines `plotted` (their label sets, in the chart's
 * order) within the window: a value that is not a finite number, or a time outside the window,
 * has no place on the chart and is left out.
 */
export function exemplarPoints(
  found: readonly SeriesExemplars[],
  plotted: readonly Labels[],
  window: { start: number; end: number },
): ExemplarPoint[] {
  return found.flatMap((series) => {
    const lines = plotted.flatMap((labels, i) =>
      labelsAgree(labels, series.seriesLabels) ? [i] : [],
    );
    const line = lines.length === 1 ? lines[0] : undefined;
    return series.exemplars.flatMap((e) => {
      const value = Number(e.value);
      if (!Number.isFinite(value) || e.timestamp < window.start || e.timestamp > window.end) {
        return [];
      }
      return [
        {
          time: e.timestamp,
          value,
          valueText: e.value,
          line,
          seriesLabels: series.seriesLabels,
          labels: e.labels,
          traceId: e.labels[TRACE_ID_LABEL] || undefined,
        },
      ];
    });
  });
}

/**
 * The lowest and highest exemplar values, which the value axis must include: an exemplar's
 * value is a single request's (say a latency), and may lie far from the lines.
 */
export function exemplarExtent(points: readonly ExemplarPoint[]): [number, number] | undefined {
  if (points.length === 0) return undefined;
  // A loop, not `Math.min(...values)`: a busy hour's exemplars would overflow the call's arguments.
  let [low, high] = [Infinity, -Infinity];
  for (const { value } of points) {
    low = Math.min(low, value);
    high = Math.max(high, value);
  }
  return [low, high];
}
