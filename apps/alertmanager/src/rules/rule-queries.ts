import type { Expr } from '../promql/ast';
import type { PromqlEngine, QueryResult } from '../promql';
import { Labels } from '../tsdb/labels';
import type { Queryable, SeriesMatcher } from '../tsdb/queryable';
import { RuleEvaluationError } from './alerting-rule-state';

/** One sample of a rule expression's instant value. */
export interface RuleSample {
  readonly metric: Labels;
  readonly f: number;
}

/** The last sample of a series within a range, as the `for` state is restored from it. */
export interface LastSample {
  readonly t: number;
  readonly v: number;
  /** The sample is a staleness marker. */
  readonly stale: boolean;
}

/**
 * Where rule expressions and the `for`-state restore read the metric store: query threads in the
 * server (`query-threads/`), the calling thread in rule unit tests. Asynchronous, so the thread
 * that schedules rules and takes alerts never waits for an evaluation.
 */
export interface RuleQueries {
  /** Each expression's instant value at `timeMs` as samples, or the error that stands for it. */
  queryAll(exprs: readonly string[], timeMs: number): Promise<(readonly RuleSample[] | Error)[]>;
  /** The last sample in `[mint, maxt]` of each series named exactly by `series`, if any. */
  lastSamples(
    series: readonly Labels[],
    mint: number,
    maxt: number,
  ): Promise<(LastSample | undefined)[]>;
  /** Prepares for the first evaluations (a thread started and its code compiled), if it can. */
  warmUp?(nowMs: number): Promise<void>;
}

/** A query result as a rule reads it: a vector's samples, or a scalar as one sample without labels. */
export function ruleSamplesOf(result: QueryResult): RuleSample[] {
  if (result.type === 'vector') return result.samples.map((s) => ({ metric: s.metric, f: s.f }));
  if (result.type === 'scalar') return [{ metric: Labels.EMPTY, f: result.f }];
  throw new RuleEvaluationError('rule result is not a vector or scalar');
}

/** The last sample in `[mint, maxt]` of the series named exactly by `labels`, read from `store`. */
export function lastSampleIn(
  store: Queryable,
  labels: Labels,
  mint: number,
  maxt: number,
): LastSample | undefined {
  const matchers: SeriesMatcher[] = labels.names.map((name, i) => {
    const value = labels.values[i];
    return { name, type: '=', value, matches: (v) => v === value };
  });
  const series = store
    .querier(mint, maxt)
    .select(matchers)
    .find((s) => s.labels.size === labels.size);
  if (series === undefined) return undefined;
  const run = series.samples(mint, maxt);
  const last = run.t.length - 1;
  if (last < 0) return undefined;
  return { t: run.t[last], v: run.v[last], stale: (run.stale?.[last] ?? 0) !== 0 };
}

/**
 * Each expression's samples at `timeMs` from `engine`, or its error; parsed expressions are kept in
 * `parsed` (a group's expressions are the same at every evaluation).
 */
export function instantRuleSamples(
  engine: PromqlEngine,
  exprs: readonly string[],
  timeMs: number,
  parsed: ParsedExpressions,
): (RuleSample[] | Error)[] {
  return exprs.map((expr) => {
    try {
      return ruleSamplesOf(engine.instantQuery(parsed.get(expr, engine), timeMs, expr));
    } catch (error) {
      return error as Error;
    }
  });
}

/** Parsed expressions by their text, the oldest forgotten past a bound. */
export class ParsedExpressions {
  private readonly byText = new Map<string, Expr>();

  constructor(private readonly bound = 10_000) {}

  get(text: string, engine: PromqlEngine): Expr {
    let expr = this.byText.get(text);
    if (expr === undefined) {
      expr = engine.parse(text);
      if (this.byText.size >= this.bound)
        this.byText.delete(this.byText.keys().next().value as string);
      this.byText.set(text, expr);
    }
    return expr;
  }
}

/** Answers on the calling thread, from an engine and the store it reads: rule unit tests, specs. */
export class InProcessRuleQueries implements RuleQueries {
  private readonly parsed = new ParsedExpressions();

  constructor(
    private readonly engine: PromqlEngine,
    private readonly store: Queryable,
  ) {}

  queryAll(exprs: readonly string[], timeMs: number): Promise<(RuleSample[] | Error)[]> {
    return Promise.resolve(instantRuleSamples(this.engine, exprs, timeMs, this.parsed));
  }

  lastSamples(
    series: readonly Labels[],
    mint: number,
    maxt: number,
  ): Promise<(LastSample | undefined)[]> {
    return Promise.resolve(series.map((labels) => lastSampleIn(this.store, labels, mint, maxt)));
  }
}
