import type { AggregateExpr, BinaryExpr, Call, Expr, SubqueryExpr, VectorMatching } from '../ast';
import { typeOf } from '../ast';
import { Labels } from '../../tsdb/labels';
import { SampleScratch } from '../../tsdb/queryable';
import { aggregate, paramWarnings } from './aggregation';
import type { Annotations } from './annotations';
import { histogramQuantileAtSteps } from './histogram-quantile-steps';
import { evalRangeFunction } from './range-function-call';
import { evalInfo } from './info-function';
import {
  scalarBinop,
  vectorAnd,
  vectorBinop,
  vectorOr,
  vectorScalarBinop,
  vectorUnless,
} from './binary-operations';
import { PromqlEvalError } from './errors';
import { checkDeadline, holdPoints, releasePoints } from './query-limits';
import { pointsByStep } from './aggregation-groups';
import { CellAggregator, isCellOp } from './cell-aggregation';
import { dropNamesNow, nameDropper } from './name-removal';
import { queryContextValue } from './query-context-values';
import { joinSeriesOneToOne } from './series-join';
import { combineAtSteps, type Steps } from './step-combination';
import { StepSelectors, type SelectorContext } from './step-selectors';
import { absentSeries, labelJoin, labelReplace } from './label-functions';
import { stringValue, unwrapParens } from './literal-args';
import { pointCount, windowOf } from './series-runs';
import type { EvalValue, Series, Vector } from './values';
import { histogramQuantileNotes, VECTOR_FUNCTIONS } from './vector-functions';

const NO_SERIES: Series = { metric: Labels.EMPTY, t: [], f: [], dropName: false };

/** What every evaluator of one query shares. */
export interface QueryContext extends SelectorContext {
  /** The query's step (0 for an instant query), which `step()` means. */
  readonly queryStepMs: number;
  /** The subquery step when none is written. */
  readonly defaultSubqueryStepMs: number;
  /** Warnings and infos about the answer. */
  readonly annotations: Annotations;
  /** Whether `__name__` is removed when the query finishes rather than at once. */
  readonly delayedNameRemoval: boolean;
}

/**
 * Evaluates expressions over the steps `start, start + interval, ..., end`, bottom up: every
 * node yields a matrix with one point per step where it has a value, as upstream's engine.
 */
export class Evaluator {
  private readonly timestamps: number[];
  private readonly steps: Steps;
  /** Where one series' samples are read at a time. */
  private readonly scratch = new SampleScratch();
  private readonly selectors: StepSelectors;

  constructor(
    private readonly ctx: QueryContext,
    readonly start: number,
    readonly end: number,
    readonly interval: number,
  ) {
    this.timestamps = [];
    for (let ts = start; ts <= end; ts += interval) this.timestamps.push(ts);
    this.steps = {
      timestamps: this.timestamps,
      instant: start === end,
      distinct: !ctx.delayedNameRemoval,
    };
    this.selectors = new StepSelectors(ctx, start, end, this.timestamps, this.scratch);
  }

  get isInstant(): boolean {
    return this.start === this.end;
  }

  eval(expr: Expr): EvalValue {
    checkDeadline(this.ctx);
    switch (expr.kind) {
      case 'number':
        return this.matrix([
          {
            metric: Labels.EMPTY,
            t: [...this.timestamps],
            f: this.timestamps.map(() => expr.value),
            dropName: false,
          },
        ]);
      case 'string':
        return { kind: 'string', value: expr.value };
      case 'paren':
        return this.eval(expr.expr);
      case 'unary': {
        const series = this.series(expr.expr);
        if (expr.op === '+') return this.matrix(series);
        return this.matrix(
          this.namesDropped(
            series.map((s) => ({
              metric: s.metric,
              t: s.t,
              f: s.f.map((v) => -v),
              dropName: true,
            })),
          ),
        );
      }
      case 'vectorSelector':
        return this.matrix(this.selectors.instant(expr));
      case 'matrixSelector':
        return this.matrix(this.selectors.rangeAtStart(expr));
      case 'subquery':
        return this.matrix(this.subqueryInstant(expr));
      case 'binary':
        return this.matrix(this.binary(expr));
      case 'aggregate':
        return this.matrix(this.aggregate(expr));
      case 'call':
        return this.matrix(this.call(expr));
    }
  }

  /** The series an expression of vector or scalar type yields. */
  series(expr: Expr): Series[] {
    const value = this.eval(expr);
    if (value.kind !== 'matrix') throw new PromqlEvalError(`unexpected string in ${expr.kind}`);
    return value.series;
  }

  private matrix(series: Series[]): EvalValue {
    return { kind: 'matrix', series };
  }

  /** Series an operation marked to lose their name: without it now, unless removal is delayed. */
  private namesDropped(series: Series[]): Series[] {
    return this.ctx.delayedNameRemoval ? series : dropNamesNow(series);
  }

  // ---- subqueries ---------------------------------------------------------------------------

  /** The inner expression evaluated at the subquery's own steps, covering every outer window. */
  private runSubquery(expr: SubqueryExpr): Series[] {
    const step = expr.stepMs > 0 ? expr.stepMs : this.ctx.defaultSubqueryStepMs;
    const [minRef, maxRef] = this.selectors.refTimes(expr.at, expr.offsetMs);
    const lowest = minRef - expr.rangeMs;
    let start = step * Math.floor(lowest / step);
    if (start <= lowest) start += step;
    const inner = new Evaluator(this.ctx, start, maxRef, step);
    if (maxRef < start) return [];
    return inner.series(expr.expr);
  }

  private subqueryInstant(expr: SubqueryExpr): Series[] {
    const ref = this.selectors.refTime(this.start, expr.at, expr.offsetMs);
    return this.runSubquery(expr)
      .map((s) => windowOf(s, ref - expr.rangeMs, ref))
      .filter((s) => s.t.length > 0);
  }

  // ---- functions ----------------------------------------------------------------------------

  private call(expr: Call): Series[] {
    const name = expr.func.name;
    const matrixIndex = expr.args.findIndex((a) => typeOf(a) === 'matrix');
    if (matrixIndex >= 0) return this.rangeFunctionCall(expr, matrixIndex);
    if (name === 'label_replace') {
      const [dst, repl, src, pattern] = expr.args.slice(1).map((a) => stringValue(a) ?? '');
      return labelReplace(() => this.series(expr.args[0]), dst, repl, src, pattern);
    }
    if (name === 'label_join') {
      const [dst, separator, ...sources] = expr.args.slice(1).map((a) => stringValue(a) ?? '');
      return labelJoin(() => this.series(expr.args[0]), dst, separator, sources);
    }
    if (name === 'info') {
      const selector = expr.args[1] ? unwrapParens(expr.args[1]) : undefined;
      return evalInfo(
        this.series(expr.args[0]),
        expr.args[0],
        selector?.kind === 'vectorSelector' ? selector : undefined,
        {
          timestamps: this.timestamps,
          select: (matchers, at, offsetMs) =>
            this.selectors.instant(
              { kind: 'vectorSelector', name: '', matchers, offsetMs, at, pos: expr.pos },
              true,
              true,
            ),
        },
      );
    }
    if (name === 'timestamp') {
      // Of a plain selector, the samples' own timestamps, not the steps'.
      const arg = unwrapParens(expr.args[0]);
      if (arg.kind === 'vectorSelector') {
        return this.namesDropped(
          this.selectors.instant(arg, true).map((series) => ({ ...series, dropName: true })),
        );
      }
    }
    if (name === 'absent') {
      return absentSeries(this.series(expr.args[0]), expr.args[0], this.timestamps, false);
    }
    const queryValue = queryContextValue(this.ctx, name);
    if (queryValue !== undefined) {
      return [
        {
          metric: Labels.EMPTY,
          t: [...this.timestamps],
          f: this.timestamps.map(() => queryValue),
          dropName: false,
        },
      ];
    }
    if (name === 'histogram_quantile') {
      const [quantiles, buckets] = expr.args.map((arg) => this.series(arg));
      const delayed = this.ctx.delayedNameRemoval;
      return histogramQuantileAtSteps(
        quantiles,
        buckets,
        this.timestamps,
        this.ctx,
        histogramQuantileNotes(this.ctx.annotations, expr.args, delayed),
        delayed,
      );
    }
    const fn = VECTOR_FUNCTIONS.get(name);
    if (fn === undefined) throw new PromqlEvalError(`function "${name}" is not supported`);
    const strings = expr.args.map(stringValue);
    if (name.startsWith('sort') && !this.isInstant) {
      this.ctx.annotations.warn(
        'sort is ineffective for range queries since results are always ordered by labels',
        expr.pos,
      );
    }
    const { annotations, delayedNameRemoval } = this.ctx;
    const dropName = nameDropper(delayedNameRemoval);
    return this.rangeEval(expr.args, (vectors, ts) =>
      fn({ vectors, strings, ts, annotations, args: expr.args, dropName, delayedNameRemoval }),
    );
  }

  /**
   * A function over a range vector (or subquery), evaluated per series and step; with `each`,
   * every result series is handed over as it is computed rather than kept.
   */
  private rangeFunctionCall(
    expr: Call,
    matrixIndex: number,
    each?: (series: Series) => void,
  ): Series[] {
    return evalRangeFunction(
      {
        ctx: this.ctx,
        selectors: this.selectors,
        scratch: this.scratch,
        timestamps: this.timestamps,
        scalarPerStep: (arg) => this.scalarPerStep(arg),
        runSubquery: (arg) => this.runSubquery(arg),
      },
      expr,
      matrixIndex,
      each,
    );
  }

  /** A scalar argument's value at each step. */
  private scalarPerStep(expr: Expr): number[] {
    const [series] = this.series(expr);
    if (series === undefined) return this.timestamps.map(() => NaN);
    return series.f;
  }

  // ---- operators ----------------------------------------------------------------------------

  private binary(expr: BinaryExpr): Series[] {
    const lt = typeOf(expr.lhs);
    const rt = typeOf(expr.rhs);
    const { op, returnBool } = expr;
    if (lt === 'scalar' && rt === 'scalar') {
      return this.rangeEval([expr.lhs, expr.rhs], ([l, r], ts) => [
        { metric: Labels.EMPTY, f: scalarBinop(op, l[0].f, r[0].f), t: ts, dropName: false },
      ]);
    }
    if (lt === 'vector' && rt === 'vector') {
      const matching = expr.matching ?? { card: 'one-to-one', labels: [], on: false, include: [] };
      if (op === 'and' || op === 'or' || op === 'unless') {
        return this.rangeEval([expr.lhs, expr.rhs], ([l, r]) => {
          if (op === 'and') return vectorAnd(l, r, matching);
          if (op === 'or') return vectorOr(l, r, matching);
          return vectorUnless(l, r, matching);
        });
      }
      return this.vectorOperation(expr, matching);
    }
    const lhs = this.series(expr.lhs);
    const rhs = this.series(expr.rhs);
    const [vector, scalar] = lt === 'vector' ? [lhs, rhs] : [rhs, lhs];
    const scalarValues = pointsByStep(scalar[0] ?? NO_SERIES, this.timestamps).map((v) => v ?? NaN);
    const swap = lt !== 'vector';
    const out = this.namesDropped(
      vectorScalarBinop(op, vector, scalarValues, this.timestamps, swap, returnBool),
    );
    releasePoints(this.ctx, pointCount(lhs) + pointCount(rhs));
    holdPoints(this.ctx, pointCount(out));
    return out;
  }

  /**
   * Arithmetic or a comparison between vectors: series by series when matched one to one with
   * unique signatures, else step by step.
   */
  private vectorOperation(expr: BinaryExpr, matching: VectorMatching): Series[] {
    const lhs = this.series(expr.lhs);
    const rhs = this.series(expr.rhs);
    const { op, returnBool } = expr;
    const delayed = this.ctx.delayedNameRemoval;
    const out = joinSeriesOneToOne(op, lhs, rhs, matching, returnBool, this.timestamps, delayed);
    if (out === undefined) {
      return combineAtSteps([lhs, rhs], this.steps, this.ctx, ([l, r]) =>
        vectorBinop(op, l, r, matching, returnBool, delayed),
      );
    }
    releasePoints(this.ctx, pointCount(lhs) + pointCount(rhs));
    holdPoints(this.ctx, pointCount(out));
    return out;
  }

  private aggregate(expr: AggregateExpr): Series[] {
    if (isCellOp(expr.op)) {
      const cells = new CellAggregator(expr.op, expr, this.timestamps);
      this.eachSeries(expr.expr, (series) => cells.add(series));
      const result = cells.finish();
      holdPoints(this.ctx, pointCount(result));
      return result;
    }
    let params: number[] | undefined;
    let label: string | undefined;
    let labelText: string | undefined;
    if (expr.param !== undefined) {
      if (typeOf(expr.param) === 'string') {
        const value = this.eval(expr.param);
        label = value.kind === 'string' ? value.value : undefined;
        const literal = unwrapParens(expr.param);
        labelText =
          literal.kind === 'string' && literal.raw.startsWith('"') ? literal.raw : undefined;
      } else params = this.scalarPerStep(expr.param);
    }
    const input = this.series(expr.expr);
    if (params && expr.param) {
      for (const warning of paramWarnings(expr.op, params)) {
        this.ctx.annotations.warn(warning, expr.param.pos);
      }
    }
    const result = aggregate(expr, input, {
      timestamps: this.timestamps,
      params,
      label,
      labelText,
    });
    releasePoints(this.ctx, pointCount(input));
    holdPoints(this.ctx, pointCount(result));
    return result;
  }

  /**
   * Hands each series of `expr` to `each`: series read from the store or computed by a range
   * function are handed over one at a time and not kept, so an aggregation over many series
   * does not hold them all; anything else is evaluated whole first.
   */
  private eachSeries(expr: Expr, each: (series: Series) => void): void {
    checkDeadline(this.ctx);
    const inner = unwrapParens(expr);
    if (inner.kind === 'vectorSelector' && !inner.smoothed) {
      this.selectors.instant(inner, false, false, each);
      return;
    }
    if (inner.kind === 'call' && inner.func.name !== 'absent_over_time') {
      const matrixIndex = inner.args.findIndex((a) => typeOf(a) === 'matrix');
      if (matrixIndex >= 0) {
        this.rangeFunctionCall(inner, matrixIndex, each);
        return;
      }
    }
    const all = this.series(expr);
    for (const series of all) each(series);
    releasePoints(this.ctx, pointCount(all));
  }

  /** Evaluates the operands (a string one as no series) and combines them step by step. */
  private rangeEval(
    operands: readonly Expr[],
    fn: (vectors: Vector[], ts: number) => Vector,
  ): Series[] {
    const inputs = operands.map((e) => (typeOf(e) === 'string' ? [] : this.series(e)));
    return combineAtSteps(inputs, this.steps, this.ctx, fn);
  }
}
