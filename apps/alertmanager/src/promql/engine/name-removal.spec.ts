import { Labels } from '../../tsdb/labels';
import { MemoryStore } from '../../tsdb/memory-store';
import { PromqlEngine } from './engine';
import type { QueryResult } from './values';

// Where `__name__` goes: at once by default, as Prometheus; at the end of the query with
// `delayedNameRemoval` (`--enable-feature=promql-delayed-name-removal`). Series of different
// names but otherwise equal labels collide in the first mode, not always in the second.

const MINUTE = 60_000;
const SAME_LABELSET = 'vector cannot contain metrics with the same labelset';

function store(): MemoryStore {
  const s = new MemoryStore();
  const series = (record: Record<string, string>) => Labels.fromRecord(record);
  for (let t = 0; t <= 20 * MINUTE; t += MINUTE) {
    // Two counters of one instance: 10 and 20 per minute.
    s.append(series({ __name__: 'myapp_a_total', instance: 'x' }), t, (t / MINUTE) * 10);
    s.append(series({ __name__: 'myapp_b_total', instance: 'x' }), t, (t / MINUTE) * 20);
  }
  // Two gauges of one job that never have a value at the same time.
  for (let t = 0; t <= 2 * MINUTE; t += MINUTE) {
    s.append(series({ __name__: 'gap_a', job: 'g' }), t, 1);
    s.append(series({ __name__: 'gap_b', job: 'g' }), t + 10 * MINUTE, 2);
  }
  return s;
}

/** What a query answers, in short: its error, or each series' labels and values. */
function answer(engine: PromqlEngine, query: Query): string[] | { error: string } {
  let result: QueryResult;
  try {
    result =
      query.range === undefined
        ? engine.instantQuery(query.expr, query.at * MINUTE)
        : engine.rangeQuery(
            query.expr,
            query.range[0] * MINUTE,
            query.range[1] * MINUTE,
            query.range[2] * MINUTE,
          );
  } catch (error) {
    return { error: (error as Error).message };
  }
  if (result.type === 'vector') return result.samples.map((s) => `${s.metric} ${s.f}`);
  if (result.type === 'matrix') {
    return result.series.map((s) => `${s.metric} ${s.f.join(' ')}@${s.t[0] / MINUTE}`);
  }
  throw new Error(result.type);
}

interface Query {
  readonly expr: string;
  readonly at: number;
  /** Start, end and step in minutes, for a range query. */
  readonly range?: readonly [number, number, number];
}

type Expected = string[] | { error: string };

const fails = { error: SAME_LABELSET };

const CASES: readonly (Query & { byDefault: Expected; delayed: Expected })[] = [
  {
    expr: 'sum by (instance) (rate({__name__=~"myapp_.+"}[5m]))',
    at: 10,
    byDefault: fails,
    delayed: ['{instance="x"} 0.5'],
  },
  {
    expr: 'sum by (instance) (rate({__name__=~"myapp_.+"}[5m]))',
    at: 0,
    range: [8, 10, 1],
    byDefault: fails,
    delayed: ['{instance="x"} 0.5 0.5 0.5@8'],
  },
  {
    // The name kept through label_replace: only possible when removal waits.
    expr: 'label_replace(rate({__name__=~"myapp_.+"}[5m]), "__name__", "$1", "__name__", "(.+)")',
    at: 10,
    byDefault: fails,
    delayed: [
      '{__name__="myapp_a_total", instance="x"} 0.16666666666666666',
      '{__name__="myapp_b_total", instance="x"} 0.3333333333333333',
    ],
  },
  // Each operation that drops the name, inside an aggregation that then takes the names away.
  { expr: 'count(-{__name__=~"myapp_.+"})', at: 10, byDefault: fails, delayed: ['{} 2'] },
  { expr: 'count({__name__=~"myapp_.+"} * 2)', at: 10, byDefault: fails, delayed: ['{} 2'] },
  { expr: 'count({__name__=~"myapp_.+"} > bool 0)', at: 10, byDefault: fails, delayed: ['{} 2'] },
  { expr: 'count(abs({__name__=~"myapp_.+"}))', at: 10, byDefault: fails, delayed: ['{} 2'] },
  {
    expr: 'count(timestamp({__name__=~"myapp_.+"}))',
    at: 10,
    byDefault: fails,
    delayed: ['{} 2'],
  },
  {
    expr: 'count(max_over_time({__name__=~"myapp_.+"}[5m]))',
    at: 10,
    byDefault: fails,
    delayed: ['{} 2'],
  },
  {
    expr: 'sum(rate({__name__=~"myapp_.+"}[5m]))',
    at: 0,
    range: [8, 9, 1],
    byDefault: fails,
    delayed: ['{} 0.5 0.5@8'],
  },
  // Operations that keep the name do not collide.
  {
    expr: 'count(last_over_time({__name__=~"myapp_.+"}[5m]))',
    at: 10,
    byDefault: ['{} 2'],
    delayed: ['{} 2'],
  },
  {
    expr: 'count({__name__=~"myapp_.+"} > 0)',
    at: 10,
    byDefault: ['{} 2'],
    delayed: ['{} 2'],
  },
  // A vector query's answer that collides fails either way.
  { expr: '-{__name__=~"myapp_.+"}', at: 10, byDefault: fails, delayed: fails },
  // Series that never meet at a step become one, as upstream merges them step by step...
  {
    expr: '-{__name__=~"gap_.+"}',
    at: 0,
    range: [0, 14, 2],
    byDefault: ['{job="g"} -1 -1 -1 -1 -2 -2 -2@0'],
    delayed: ['{job="g"} -1 -1 -1 -1 -2 -2 -2@0'],
  },
  // ... but a range function's series may not share labels at all when names go at once.
  {
    expr: 'max_over_time({__name__=~"gap_.+"}[1m])',
    at: 0,
    range: [0, 14, 2],
    byDefault: fails,
    delayed: ['{job="g"} 1 1 2 2@0'],
  },
];

describe('__name__ removal', () => {
  const data = store();
  const byDefault = new PromqlEngine(data);
  const delayed = new PromqlEngine(data, { delayedNameRemoval: true });

  const table = CASES.map((c) => [c.range === undefined ? 'instant' : 'range', c.expr, c] as const);

  it.each(table)('%s query %s', (_kind, _expr, c) => {
    expect(answer(byDefault, c)).toEqual(c.byDefault);
    expect(answer(delayed, c)).toEqual(c.delayed);
  });

  it('names the metric in a histogram_quantile warning only when removal is delayed', () => {
    const s = new MemoryStore();
    s.append(Labels.fromRecord({ __name__: 'latency_bucket', le: 'fast' }), 0, 1);
    const warnings = (engine: PromqlEngine) =>
      engine.instantQuery('histogram_quantile(0.5, latency_bucket)', 0).warnings;
    expect(warnings(new PromqlEngine(s))).toEqual([
      'PromQL warning: bucket label "le" is missing or has a malformed value of "fast" (1:25)',
    ]);
    expect(warnings(new PromqlEngine(s, { delayedNameRemoval: true }))).toEqual([
      'PromQL warning: bucket label "le" is missing or has a malformed value of "fast" for metric name "latency_bucket" (1:25)',
    ]);
  });
});
