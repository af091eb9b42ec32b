import { answerQuery, type QueryCall } from '../api/prometheus/query-request';
import type { EngineOptions } from '../promql';
import { METRIC_NAME } from '../tsdb/labels';
import type { Queryable, SeriesMatcher } from '../tsdb/queryable';
import type { SeriesReplica } from '../tsdb/series-replica';

/** The most series a warm-up query reads for each metric it picks: enough to compile, little to wait. */
const MAX_SERIES = 500;
/** How long the warm-up may take in all. */
const BUDGET_MS = 10_000;

/**
 * Runs the query API's common paths once on a new thread, over the store as it is: label values,
 * an instant and a range query over a counter (`up` when it is small enough), and a quantile over a
 * histogram's buckets when there is one, each reading at most {@link MAX_SERIES} series. V8
 * compiles a thread's code as it runs; without this, the first dashboard query after a start
 * pays for it (hundreds of milliseconds where later ones take tens).
 */
export function warmUp(replica: SeriesReplica, engine: EngineOptions, nowMs: number): void {
  const deadlineMs = Date.now() + BUDGET_MS;
  const ask = (call: QueryCall) => answerQuery(replica, { ...call, nowMs, deadlineMs }, engine);
  const hour = { start: `${(nowMs - 3_600_000) / 1000}`, end: `${nowMs / 1000}` };
  const names = metricNames(ask({ endpoint: 'label_values', labelName: METRIC_NAME, params: '' }));
  const counter =
    pick(replica, ['up'], () => true, nowMs) ?? pick(replica, names, () => true, nowMs);
  const buckets = pick(replica, names, (name) => name.endsWith('_bucket'), nowMs);
  const range = (query: string) =>
    ask({
      endpoint: 'query_range',
      params: new URLSearchParams({ query, ...hour, step: '60' }).toString(),
    });
  if (counter !== undefined) {
    ask({
      endpoint: 'query',
      params: new URLSearchParams({ query: `count(count_over_time(${counter}[1h]))` }).toString(),
    });
    range(`sum by (instance) (rate(${counter}[5m]))`);
  }
  if (buckets !== undefined)
    range(`histogram_quantile(0.9, sum by (le, instance) (rate(${buckets}[5m])))`);
}

/** The metric names of a `label_values` answer. */
function metricNames(reply: { status: number; body: string | Uint8Array }): string[] {
  if (reply.status !== 200) return [];
  const text = typeof reply.body === 'string' ? reply.body : new TextDecoder().decode(reply.body);
  const data = (JSON.parse(text) as { data?: unknown }).data;
  return Array.isArray(data) ? data.filter((n): n is string => typeof n === 'string') : [];
}

/** Of the names `wanted` takes, the one with the most series up to {@link MAX_SERIES}. */
function pick(
  store: Queryable,
  names: readonly string[],
  wanted: (name: string) => boolean,
  nowMs: number,
): string | undefined {
  let best: { name: string; series: number } | undefined;
  const querier = store.querier(nowMs - 3_600_000, nowMs);
  for (const name of names) {
    if (!wanted(name)) continue;
    const matcher: SeriesMatcher = {
      name: METRIC_NAME,
      type: '=',
      value: name,
      matches: (v) => v === name,
    };
    const series = querier.select([matcher]).length;
    if (series <= MAX_SERIES && series > (best?.series ?? 0)) best = { name, series };
  }
  return best?.name;
}
