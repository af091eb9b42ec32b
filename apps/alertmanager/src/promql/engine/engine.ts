import type { Expr } from '../ast';
import { typeOf } from '../ast';
import { parseExpr } from '../parser/parse-expr';
import type { ParserOptions } from '../parser/syntax-tree';
import { compareLabels } from '../../tsdb/labels';
import type { Queryable } from '../../tsdb/queryable';
import { PromqlEvalError } from './errors';
import { Evaluator, type QueryContext } from './evaluator';
import { mergeSameLabelset } from './label-functions';
import { SAME_LABELSET, withoutMetadata } from './name-removal';
import { resolveDurations } from './resolve-durations';
import { Annotations } from './annotations';
import type { EvalValue, QueryResult, QueryValue, Series } from './values';

export interface EngineOptions {
  /** How far back an instant selector looks for a sample (`--query.lookback-delta`). */
  readonly lookbackDeltaMs?: number;
  /** Most points one query may hold at once (`--query.max-samples`). */
  readonly maxSamples?: number;
  /** Longest a query may run (`--query.timeout`). */
  readonly timeoutMs?: number;
  /** Subquery step when none is written: the rule evaluation interval. */
  readonly defaultSubqueryStepMs?: number;
  /**
   * Remove `__name__` when the query finishes rather than where an operation drops it
   * (`--enable-feature=promql-delayed-name-removal`); off by default, as in Prometheus.
   */
  readonly delayedNameRemoval?: boolean;
  readonly parser?: ParserOptions;
}

const DEFAULTS = {
  lookbackDeltaMs: 5 * 60_000,
  maxSamples: 50_000_000,
  timeoutMs: 2 * 60_000,
  defaultSubqueryStepMs: 60_000,
  delayedNameRemoval: false,
};

/** Runs PromQL instant and range queries against a store, as Prometheus's engine does. */
export class PromqlEngine {
  private readonly options: Required<Omit<EngineOptions, 'parser'>> & { parser: ParserOptions };

  constructor(
    private readonly queryable: Queryable,
    options: EngineOptions = {},
  ) {
    this.options = { ...DEFAULTS, parser: {}, ...stripUndefined(options) };
  }

  parse(query: string): Expr {
    return parseExpr(query, this.options.parser);
  }

  /**
   * The expression's value at one time (ms). `text`: the query as written, when `query` is
   * already parsed, for the `(line:column)` of its warnings and infos.
   */
  instantQuery(query: string | Expr, timeMs: number, text?: string): QueryResult {
    const parsed = typeof query === 'string' ? this.parse(query) : query;
    const expr = resolveDurations(parsed, { stepMs: 0, rangeMs: 0 });
    const context = this.context(timeMs, timeMs, 0);
    const value = new Evaluator(context, timeMs, timeMs, 1).eval(expr);
    return {
      ...this.instantValue(expr, value, timeMs),
      ...context.annotations.toStrings(typeof query === 'string' ? query : (text ?? '')),
    };
  }

  private instantValue(expr: Expr, value: EvalValue, timeMs: number): QueryValue {
    if (value.kind === 'string') return { type: 'string', t: timeMs, value: value.value };
    const series = this.options.delayedNameRemoval
      ? cleanUp(value.series, typeOf(expr) === 'vector')
      : value.series;
    switch (typeOf(expr)) {
      case 'scalar':
        return { type: 'scalar', t: timeMs, f: series[0]?.f[0] ?? NaN };
      case 'vector':
        return {
          type: 'vector',
          samples: series.map((s) => ({ metric: s.metric, t: timeMs, f: s.f[0] })),
        };
      default:
        return { type: 'matrix', series: sortSeries(series) };
    }
  }

  /** The expression's values at `start, start + step, ..., end` (ms). */
  rangeQuery(
    query: string | Expr,
    startMs: number,
    endMs: number,
    stepMs: number,
    text?: string,
  ): QueryResult {
    const expr = typeof query === 'string' ? this.parse(query) : query;
    const type = typeOf(expr);
    if (type !== 'scalar' && type !== 'vector') {
      const name = type === 'matrix' ? 'range vector' : type;
      throw new PromqlEvalError(
        `invalid expression type "${name}" for range query, must be Scalar or instant Vector`,
      );
    }
    if (!(stepMs > 0))
      throw new PromqlEvalError('zero or negative query resolution step widths are not accepted');
    if (endMs < startMs) throw new PromqlEvalError('end timestamp must not be before start time');
    const resolved = resolveDurations(expr, { stepMs, rangeMs: endMs - startMs });
    const context = this.context(startMs, endMs, stepMs);
    const value = new Evaluator(context, startMs, endMs, stepMs).eval(resolved);
    if (value.kind === 'string')
      throw new PromqlEvalError('string is not allowed in a range query');
    return {
      type: 'matrix',
      series: sortSeries(
        this.options.delayedNameRemoval ? cleanUp(value.series, false) : value.series,
      ),
      ...context.annotations.toStrings(typeof query === 'string' ? query : (text ?? '')),
    };
  }

  private context(start: number, end: number, step: number): QueryContext {
    const { lookbackDeltaMs, maxSamples, timeoutMs, defaultSubqueryStepMs, delayedNameRemoval } =
      this.options;
    const lookback = lookbackDeltaMs;
    return {
      querier: this.queryable.querier(start - lookback - 1, end),
      lookbackMs: lookback,
      maxSamples,
      deadline: Date.now() + timeoutMs,
      queryStart: start,
      queryEnd: end,
      queryStepMs: step,
      defaultSubqueryStepMs,
      delayedNameRemoval,
      samples: 0,
      annotations: new Annotations(),
    };
  }
}

/** With delayed name removal: removes `__name__` (and `__type__`, `__unit__`) where an operation said so, then refuses or merges clashing label sets. */
function cleanUp(series: Series[], instantVector: boolean): Series[] {
  const cleaned = series.map((s) =>
    s.dropName ? { ...s, metric: withoutMetadata(s.metric), dropName: false } : s,
  );
  if (instantVector) {
    const seen = new Set<string>();
    for (const s of cleaned) {
      if (seen.has(s.metric.key)) throw new PromqlEvalError(SAME_LABELSET);
      seen.add(s.metric.key);
    }
    return cleaned;
  }
  return mergeSameLabelset(cleaned);
}

function sortSeries(series: Series[]): Series[] {
  return [...series].sort((a, b) => compareLabels(a.metric, b.metric));
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
