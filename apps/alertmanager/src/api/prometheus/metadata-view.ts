import { PromqlParseError, type LabelMatcher } from '../../promql';
import { parseMetricSelector } from '../../promql/parser/metric-selector';
import { publicLabels, type MetricMetadata, type MetricType, type ScrapePool } from '../../scrape';
import { invalidParam, PrometheusApiError } from './prometheus-reply';

/** The parameters of `/api/v1/targets/metadata`, as read from the request (absent: null). */
export interface TargetMetadataParams {
  readonly matchTarget: string | null;
  readonly metric: string | null;
  readonly limit: string | null;
}

/** The parameters of `/api/v1/metadata` (2.42 has no `limit_per_metric`: it is ignored). */
export interface MetricMetadataParams {
  readonly metric: string | null;
  readonly limit: string | null;
}

/** An entry of `/api/v1/targets/metadata`: `metric` only when no `metric` was asked for. */
export interface TargetMetadataEntry {
  readonly target: Record<string, string>;
  readonly metric?: string;
  readonly type: MetricType;
  readonly help: string;
  readonly unit: string;
}

/** One of a metric's distinct metadata in `/api/v1/metadata`. */
export interface MetadataEntry {
  readonly type: MetricType;
  readonly help: string;
  readonly unit: string;
}

/** Go's `int` range, which `strconv.Atoi` keeps to. */
const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);

/**
 * The `limit` parameter as 2.42 reads it with `strconv.Atoi`: absent or empty is no limit (-1), a
 * negative number too; anything but a decimal integer (optionally signed) within Go's `int` is
 * refused with `limit must be a number`.
 */
export function parseLimit(text: string | null): number {
  if (text === null || text === '') return -1;
  const bad = () => new PrometheusApiError('bad_data', 'limit must be a number');
  if (!/^[+-]?[0-9]+$/.test(text)) throw bad();
  const value = BigInt(text);
  if (value > INT64_MAX || value < INT64_MIN) throw bad();
  return value < 0n ? -1 : value > BigInt(Number.MAX_SAFE_INTEGER) ? Infinity : Number(value);
}

/**
 * `match_target` as 2.42's `ParseMetricSelector` reads it (the PromQL parser in its 2.42 dialect:
 * 2.42's words, messages and regex anchoring); an empty one matches every target.
 */
export function parseMatchTarget(text: string | null): LabelMatcher[] {
  if (text === null || text === '') return [];
  try {
    return parseMetricSelector(text, 'v2.42');
  } catch (error) {
    if (error instanceof PromqlParseError) throw invalidParam('match_target', error.message);
    throw error;
  }
}

/**
 * The `data` of `/api/v1/targets/metadata`, as Prometheus 2.42 answers it: for each active target
 * whose labels (without the `__` ones) match `match_target`, its metadata of `metric`, or of every
 * family (then each entry names its `metric`). With `limit`, targets are added while fewer than
 * `limit` entries are listed, each target whole (so the list may pass it); 0 lists none.
 *
 * 2.42 walks pools and targets in Go's map order, and a target's families too, so its order
 * changes from one request to the next; here pools come in the configuration's order, targets in
 * their discovery order (as `/api/v1/targets`), and a target's families by name.
 */
export function targetMetadataView(
  pools: readonly ScrapePool[],
  params: TargetMetadataParams,
): TargetMetadataEntry[] {
  const limit = parseLimit(params.limit);
  const matchers = parseMatchTarget(params.matchTarget);
  const metric = params.metric ?? '';
  const entries: TargetMetadataEntry[] = [];
  for (const pool of pools) {
    for (const loop of pool.activeTargets) {
      if (limit >= 0 && entries.length >= limit) return entries;
      const labels = publicLabels(loop.target.labels);
      if (!matchers.every((m) => m.matches(labels.get(m.name)))) continue;
      if (metric === '') {
        const list = loop.metadata.list();
        if (list.length === 0) continue;
        const target = labels.toRecord();
        for (const md of list)
          entries.push({ target, metric: md.metric, type: md.type, help: md.help, unit: md.unit });
        continue;
      }
      const md = loop.metadata.get(metric);
      if (md)
        entries.push({ target: labels.toRecord(), type: md.type, help: md.help, unit: md.unit });
    }
  }
  return entries;
}

/**
 * The `data` of `/api/v1/metadata`, as Prometheus 2.42 answers it: each metric's distinct
 * metadata (type, help and unit) over every active target, for `metric` alone when given (an
 * unknown one gives `{}`). With `limit`, no more than that many metrics; 0 gives `{}`.
 *
 * 2.42 keeps Go's map order for which metrics `limit` keeps and for the order of a metric's
 * entries, both changing from one request to the next; here the metrics kept are the first by
 * name, and a metric's entries come in the order targets are listed by `/api/v1/targets`. Metrics
 * are written by name, as Go's JSON writes a map.
 */
export function metricMetadataView(
  pools: readonly ScrapePool[],
  params: MetricMetadataParams,
): Record<string, MetadataEntry[]> {
  const limit = parseLimit(params.limit);
  const metric = params.metric ?? '';
  const byMetric = new Map<string, Map<string, MetadataEntry>>();
  const add = (md: MetricMetadata) => {
    let distinct = byMetric.get(md.metric);
    if (distinct === undefined) {
      distinct = new Map();
      byMetric.set(md.metric, distinct);
    }
    const key = `${md.type}\u0000${md.unit}\u0000${md.help}`;
    if (!distinct.has(key)) distinct.set(key, { type: md.type, help: md.help, unit: md.unit });
  };
  for (const pool of pools) {
    for (const loop of pool.activeTargets) {
      if (metric === '') {
        for (const md of loop.metadata.values()) add(md);
        continue;
      }
      const md = loop.metadata.get(metric);
      if (md) add(md);
    }
  }
  // A metric may be named `__proto__`: no prototype to set by mistake.
  const data = Object.create(null) as Record<string, MetadataEntry[]>;
  const names = [...byMetric.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  for (const name of names.slice(0, limit >= 0 ? limit : names.length)) {
    data[name] = [...(byMetric.get(name) as Map<string, MetadataEntry>).values()];
  }
  return data;
}
