// A panel's query: asked whenever what it depends on changes, the older request cancelled.
import { useEffect, useState } from 'preact/hooks';
import { api, type QueryData } from '../api';
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
}

const NOTHING: PanelAnswer = { loading: false, warnings: [], infos: [] };

/**
 * Runs the panel's expression: an instant query at the end time for the table, a range query
 * for the graph. It runs again when the expression, tab, range, end or step changes, or when
 * `run` counts up (the Execute button); errors read as Prometheus's panel words them.
 */
export function usePanelQuery(options: PanelOptions, run: number): PanelAnswer {
  const [answer, setAnswer] = useState<PanelAnswer>(NOTHING);
  const { expr, tab, rangeMs, endMs, stepSeconds } = options;
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
    request.then(
      (reply) =>
        setAnswer({
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
        }),
      (error: unknown) => {
        if (abort.signal.aborted) return;
        const message = error instanceof Error ? error.message : String(error);
        setAnswer({ ...NOTHING, error: `Error executing query: ${message}` });
      },
    );
    return () => abort.abort();
  }, [expr, tab, rangeMs, endMs, stepSeconds, run]);
  return answer;
}
