import {
  PromqlEngine,
  PromqlEvalError,
  PromqlParseError,
  QueryTimeoutError,
  type EngineOptions,
  type LabelMatcher,
} from '../../promql';
import type { Clock } from '../../time/clock';
import { compareGoStrings } from '../../labels/label-set-format';
import { compareLabels, type Labels } from '../../tsdb/labels';
import type { Queryable } from '../../tsdb/queryable';
import { invalidParam, PrometheusApiError } from './prometheus-reply';
import {
  MAX_TIME_MS,
  MIN_TIME_MS,
  parseDurationParam,
  parseMatchersParam,
  parseTimeParam,
} from './query-params';
import { queryData } from './query-result-json';

/** Upstream's limit of points per series in a range query. */
const MAX_POINTS = 11_000;

/** An answer's data and the warnings (and infos) that go with it. */
export interface QueryAnswer {
  readonly data: unknown;
  readonly warnings: readonly string[];
  readonly infos: readonly string[];
}

/**
 * Prometheus's query API over the metric store: instant and range queries, series, label names
 * and values, with upstream's parameters, defaults and error types. Parameters come as
 * `URLSearchParams` (query string and form body merged by the controller).
 */
export class QueryApi {
  private readonly engine: PromqlEngine;

  constructor(
    private readonly store: Queryable,
    private readonly clock: Clock,
    private readonly engineOptions: EngineOptions = {},
  ) {
    this.engine = new PromqlEngine(store, engineOptions);
  }

  query(params: URLSearchParams): QueryAnswer {
    const time = parseTimeParam('time', params.get('time'), this.clock.now());
    const engine = this.engineFor(params);
    const query = params.get('query') ?? '';
    let expr;
    try {
      expr = engine.parse(query);
    } catch (error) {
      throw invalidParam('query', (error as Error).message);
    }
    return this.run(() => engine.instantQuery(expr, time, query));
  }

  queryRange(params: URLSearchParams): QueryAnswer {
    const start = parseTimeParam('start', params.get('start') ?? 'missing', 0);
    const end = parseTimeParam('end', params.get('end') ?? 'missing', 0);
    if (end < start) throw invalidParam('end', 'end timestamp must not be before start time');
    const step = parseDurationParam('step', params.get('step') ?? '');
    if (step <= 0) {
      throw invalidParam(
        'step',
        'zero or negative query resolution step widths are not accepted. Try a positive integer',
      );
    }
    if ((end - start) / step > MAX_POINTS) {
      throw new PrometheusApiError(
        'bad_data',
        'exceeded maximum resolution of 11,000 points per timeseries. Try decreasing the query resolution (?step=XX)',
      );
    }
    const engine = this.engineFor(params);
    const query = params.get('query') ?? '';
    let expr;
    try {
      expr = engine.parse(query);
    } catch (error) {
      throw new PrometheusApiError('bad_data', (error as Error).message);
    }
    return this.run(() => engine.rangeQuery(expr, start, end, step, query));
  }

  /** `/api/v1/series`: the label sets of the series any `match[]` selects within the range. */
  series(params: URLSearchParams): QueryAnswer {
    const selectors = params.getAll('match[]');
    if (selectors.length === 0) {
      throw new PrometheusApiError('bad_data', 'no match[] parameter provided');
    }
    const { start, end } = this.range(params);
    let sets: LabelMatcher[][];
    try {
      sets = parseMatchersParam(selectors);
    } catch (error) {
      throw invalidParam('match[]', (error as Error).message);
    }
    const found = new Map<string, Labels>();
    for (const labels of this.select(sets, start, end)) found.set(labels.key, labels);
    const data = [...found.values()].sort(compareLabels).map((labels) => labels.toRecord());
    return { data, warnings: [], infos: [] };
  }

  /** `/api/v1/labels`: every label name of the selected series (all series without `match[]`). */
  labelNames(params: URLSearchParams): QueryAnswer {
    const { start, end } = this.range(params);
    const names = new Set<string>();
    for (const labels of this.select(this.matchersOrAll(params), start, end)) {
      for (const name of labels.names) names.add(name);
    }
    return { data: [...names].sort(compareGoStrings), warnings: [], infos: [] };
  }

  /** `/api/v1/label/<name>/values`: the values the label takes on the selected series. */
  labelValues(name: string, params: URLSearchParams): QueryAnswer {
    if (!/^[a-zA-Z_][a-zA-Z0-9_]*$/.test(name)) {
      throw new PrometheusApiError('bad_data', `invalid label name: ${JSON.stringify(name)}`);
    }
    const { start, end } = this.range(params);
    const values = new Set<string>();
    for (const labels of this.select(this.matchersOrAll(params), start, end)) {
      const value = labels.get(name);
      if (value !== '') values.add(value);
    }
    return { data: [...values].sort(compareGoStrings), warnings: [], infos: [] };
  }

  private range(params: URLSearchParams): { start: number; end: number } {
    return {
      start: parseTimeParam('start', params.get('start'), MIN_TIME_MS),
      end: parseTimeParam('end', params.get('end'), MAX_TIME_MS),
    };
  }

  private matchersOrAll(params: URLSearchParams): LabelMatcher[][] {
    const selectors = params.getAll('match[]');
    if (selectors.length > 0) return parseMatchersParam(selectors);
    return [[{ name: '__name__', type: '=~', value: '.+', matches: (v) => v !== '' }]];
  }

  /** The series of any matcher set with a sample in `[start, end]`. */
  private select(sets: LabelMatcher[][], start: number, end: number): Labels[] {
    const querier = this.store.querier(start, end);
    const out: Labels[] = [];
    for (const set of sets) {
      for (const series of querier.select(set)) {
        if (series.hasSamples(start, end)) out.push(series.labels);
      }
    }
    return out;
  }

  /** A query's `timeout` parameter shortens the engine's own. */
  private engineFor(params: URLSearchParams): PromqlEngine {
    const timeout = params.get('timeout');
    if (timeout === null || timeout === '') return this.engine;
    const timeoutMs = parseDurationParam('timeout', timeout);
    return new PromqlEngine(this.store, {
      ...this.engineOptions,
      timeoutMs: Math.min(timeoutMs, this.engineOptions.timeoutMs ?? Infinity),
    });
  }

  private run(query: () => ReturnType<PromqlEngine['instantQuery']>): QueryAnswer {
    try {
      const result = query();
      return { data: queryData(result), warnings: result.warnings, infos: result.infos };
    } catch (error) {
      if (error instanceof QueryTimeoutError)
        throw new PrometheusApiError('timeout', error.message);
      if (error instanceof PromqlEvalError)
        throw new PrometheusApiError('execution', error.message);
      if (error instanceof PromqlParseError)
        throw new PrometheusApiError('bad_data', error.message);
      throw error;
    }
  }
}
