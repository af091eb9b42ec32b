// A panel's query: asked whenever what it depends on changes, the older request cancelled.
import { useEffect, useState } from 'preact/hooks';
import { api, type QueryData } from '../api';
import type { SeriesExemplars } from '../exemplar-traces';
import type { QueryWindow } from './chart-data';
import { defaultStep, type PanelOptions, type PanelTab } from './panel-options';
import { resultSeries } from './series';

/** What a panel shows of its last query. */
export interface PanelAnswer {
  loading: boolean;
  /** The tab the data was asked for: a graph's range query or a table's instant query. */
  tab?: PanelTab;
  data?: QueryData;
  /** The window the data was asked for (an instant query's `start` is its `end`). */
  window?: QueryWindow;
  error?: string;
  warnings: string[];
  infos: string[];
  stats?: { loadMs: number; stepSeconds: number; series: number };
  /** The range's exemplars, when the graph shows them; none when they could not be read. */
  exemplars?: SeriesExemplars[];
  /** Why the exemplars are missing: the graph is drawn without them and says so. */
  exemplarsError?: string;
}

const NOTHING: PanelAnswer = { loading: false, warnings: [], infos: [] };

/**
 * Runs the panel's expression: an instant query at the end time for the table, a range query
 * (and, when asked, its exemplars) for the graph. It runs again when the expression, tab, range,
 * end, step or exemplar toggle changes, or when `run` counts up (the Execute button); errors
 * read as Prometheus's panel words them.
 */
export function usePanelQuery(options: PanelOptions, run: number): PanelAnswer {
  const [answer, setAnswer] = useState<PanelAnswer>(NOTHING);
  const { expr, tab, rangeMs, endMs, stepSeconds, showExemplars } = options;
  useEffect(() => {
    if (expr.trim() === '') {
      setAnswer(NOTHING);
      return;
    }
    const abort = new AbortController();
    const started = performance.now();
    const end = (endMs ?? Date.now()) / 1000;
    const step = stepSeconds ?? defaultStep(rangeMs);
    const window: QueryWindow =
      tab === 'graph' ? { start: end - rangeMs / 1000, end, step } : { start: end, end, step };
    setAnswer((before) => ({ ...before, loading: true }));
    const request =
      tab === 'graph'
        ? api.queryRange(expr, window.start, window.end, step, abort.signal)
        : api.query(expr, end, abort.signal);
    // Asked beside the range query, not after it; its failure costs the graph nothing.
    const exemplars: Promise<Pick<PanelAnswer, 'exemplars' | 'exemplarsError'>> =
      tab === 'graph' && showExemplars
        ? api.queryExemplars(expr, window.start, window.end, abort.signal).then(
            (found) => ({ exemplars: found }),
            (error: unknown) => ({
              exemplarsError: `Exemplars not shown: ${error instanceof Error ? error.message : String(error)}`,
            }),
          )
        : Promise.resolve({});
    Promise.all([request, exemplars]).then(
      ([reply, extra]) => {
        // A cancelled exemplar request resolves (as a note) and must not show a stale answer.
        if (abort.signal.aborted) return;
        setAnswer({
          ...extra,
          loading: false,
          tab,
          data: reply.data,
          window,
          warnings: reply.warnings ?? [],
          infos: reply.infos ?? [],
          stats: {
            loadMs: Math.round(performance.now() - started),
            stepSeconds: step,
            series: resultSeries(reply.data),
          },
        });
      },
      (error: unknown) => {
        if (abort.signal.aborted) return;
        const message = error instanceof Error ? error.message : String(error);
        setAnswer({ ...NOTHING, error: `Error executing query: ${message}` });
      },
    );
    return () => abort.abort();
  }, [expr, tab, rangeMs, endMs, stepSeconds, showExemplars, run]);
  return answer;
}
