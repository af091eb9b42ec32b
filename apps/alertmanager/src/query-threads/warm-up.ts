import { answerQuery, type QueryCall } from '../api/prometheus/query-request';
import type { EngineOptions } from '../promql';
import { METRIC_NAME } from '../tsdb/labels';
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
 * pays for it (hundreds of milliseconds where later ones take tens). The metrics are picked from
 * the index alone: asking the API for every metric name read every series (200 ms at 100,000),
 * and `/-/ready` waits for the warm-up.
 */
export function warmUp(replica: SeriesReplica, engine: EngineOptions, nowMs: number): void {
  const deadlineMs = Date.now() + BUDGET_MS;
  const ask = (call: QueryCall) => answerQuery(replica, { ...call, nowMs, deadlineMs }, engine);
  const hour = { start: `${(nowMs - 3_600_000) / 1000}`, end: `${nowMs / 1000}` };
  const names = replica.labelValues(METRIC_NAME);
  const counter = pick(replica, ['up'], () => true) ?? pick(replica, names, () => true);
  const buckets = pick(replica, names, (name) => name.endsWith('_bucket'));
  const range = (query: string) =>
    ask({
      endpoint: 'query_range',
      params: new URLSearchParams({ query, ...hour, step: '60' }).toString(),
    });
  if (counter !== undefined) {
    ask({
      endpoint: 'label_values',
      labelName: METRIC_NAME,
      params: new URLSearchParams({ 'match[]': counter }).toString(),
    });
    ask({
      endpoint: 'query',
      params: new URLSearchParams({ query: `count(count_over_time(${counter}[1h]))` }).toString(),
    });
    range(`sum by (instance) (rate(${counter}[5m]))`);
  }
  if (buckets !== undefined)
    range(`histogram_quantile(0.9, sum by (le, instance) (rate(${buckets}[5m])))`);
}

/** Of the names `wanted` takes, the one with the most series up to {@link MAX_SERIES}. */
function pick(
  replica: SeriesReplica,
  names: readonly string[],
  wanted: (name: string) => boolean,
): string | undefined {
  let best: { name: string; series: number } | undefined;
  for (const name of names) {
    if (!wanted(name)) continue;
    const series = replica.count([
      { name: METRIC_NAME, type: '=', value: name, matches: (v) => v === name },
    ]);
    if (series <= MAX_SERIES && series > (best?.series ?? 0)) best = { name, series };
  }
  return best?.name;
}
