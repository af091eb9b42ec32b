import type {
  AggregateExpr,
  AtModifier,
  BinaryExpr,
  Call,
  Expr,
  MatrixSelector,
  SubqueryExpr,
  VectorSelector,
} from '../ast';
import { typeOf } from '../ast';
import { Labels, METRIC_NAME } from '../../tsdb/labels';
import { SampleScratch, type Querier } from '../../tsdb/queryable';
import { aggregate } from './aggregation';
import type { Annotations } from './annotations';
import { goFormatG } from './float-math';
import { evalInfo } from './info-function';
import { firstAfter } from './time-search';
import {
  scalarBinop,
  vectorAnd,
  vectorBinop,
  vectorOr,
  vectorScalarBinop,
  vectorUnless,
} from './binary-operations';
import { PromqlEvalError, QueryTimeoutError, TooManySamplesError } from './errors';
import { absentSeries, labelJoin, labelReplace } from './label-functions';
import { stringValue, unwrapParens } from './literal-args';
import { ANCHORED_SAFE, keepsMetricName, RANGE_FUNCTIONS, SMOOTHED_SAFE } from './range-functions';
import { pointCount, sampleAt, seriesFromRun, windowOf, withoutStale } from './series-runs';
import type { EvalValue, Series, Vector } from './values';
import { VECTOR_FUNCTIONS } from './vector-functions';

/** What every evaluator of one query shares. */
export interface QueryContext {
  readonly querier: Querier;
  readonly lookbackMs: number;
  readonly maxSamples: number;
  /** `Date.now()` after which the query is abandoned. */
  readonly deadline: number;
  /** The query's own start and end, which `@ start()` and `@ end()` mean at every depth. */
  readonly queryStart: number;
  readonly queryEnd: number;
  /** The query's step (0 for an instant query), which `step()` means. */
  readonly queryStepMs: number;
  /** The subquery step when none is written. */
  readonly defaultSubqueryStepMs: number;
  /** Points currently held, checked against `maxSamples`. */
  samples: number;
  /** Warnings and infos about the answer. */
  readonly annotations: Annotations;
}

/**
 * Evaluates expressions over the steps `start, start + interval, ..., end`, bottom up: every
 * node yields a matrix with one point per step where it has a value, as upstream's engine.
 */
export class Evaluator {
  private readonly timestamps: number[];
  /** Where one series' samples are read at a time. */
  private readonly scratch = new SampleScratch();

  constructor(
    private readonly ctx: QueryContext,
    readonly start: number,
    readonly end: number,
    readonly interval: number,
  ) {
    this.timestamps = [];
    for (let ts = start; ts <= end; ts += interval) this.timestamps.push(ts);
  }

  get isInstant(): boolean {
    return this.start === this.end;
  }

  eval(expr: Expr): EvalValue {
    this.checkDeadline();
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
          series.map((s) => ({ metric: s.metric, t: s.t, f: s.f.map((v) => -v), dropName: true })),
        );
      }
      case 'vectorSelector':
        return this.matrix(this.vectorSelector(expr));
      case 'matrixSelector':
        return this.matrix(this.matrixSelectorInstant(expr));
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

  // ---- selectors --------------------------------------------------------------------------

  /** The evaluation time a selector reads at for step `ts`: `@` pins it, `offset` shifts it. */
  private refTime(ts: number, at: AtModifier, offsetMs: number): number {
    switch (at.kind) {
      case 'none':
        return ts - offsetMs;
      case 'timestamp':
        return at.ms - offsetMs;
      case 'start':
        return this.ctx.queryStart - offsetMs;
      case 'end':
        return this.ctx.queryEnd - offsetMs;
    }
  }

  private refTimes(at: AtModifier, offsetMs: number): [number, number] {
    const first = this.refTime(this.start, at, offsetMs);
    const last = this.refTime(this.end, at, offsetMs);
    return [Math.min(first, last), Math.max(first, last)];
  }

  /**
   * Each series' latest sample within the lookback window before each step, unless stale; with
   * `sampleTimes`, the sample's timestamp in seconds instead of its value (for `timestamp()`).
   */
  private vectorSelector(
    selector: VectorSelector,
    sampleTimes = false,
    keepValue = false,
  ): Series[] {
    if (selector.smoothed && !sampleTimes) return this.smoothedSelector(selector);
    const [minRef, maxRef] = this.refTimes(selector.at, selector.offsetMs);
    const lookback = this.ctx.lookbackMs;
    const out: Series[] = [];
    for (const found of this.ctx.querier.select(selector.matchers)) {
      const run = found.samples(minRef - lookback + 1, maxRef, this.scratch);
      const series: Series = { metric: found.labels, t: [], f: [], dropName: false };
      for (const ts of this.timestamps) {
        const ref = this.refTime(ts, selector.at, selector.offsetMs);
        const i = firstAfter(run.t, ref) - 1;
        if (i < 0 || run.t[i] <= ref - lookback || run.stale?.[i] === 1) continue;
        series.t.push(ts);
        // For `timestamp()` the sample's time in seconds; for `info()` in milliseconds.
        series.f.push(sampleTimes ? (keepValue ? run.t[i] : run.t[i] / 1000) : run.v[i]);
      }
      if (series.t.length > 0) {
        this.hold(series.t.length);
        out.push(series);
      }
    }
    return out;
  }

  /**
   * A `smoothed` instant selector: at each step, the value interpolated between the samples
   * around the evaluation time (within the lookback on either side), or the sample exactly at it,
   * or the last one before it when none follows.
   */
  private smoothedSelector(selector: VectorSelector): Series[] {
    const [minRef, maxRef] = this.refTimes(selector.at, selector.offsetMs);
    const lookback = this.ctx.lookbackMs;
    const out: Series[] = [];
    for (const found of this.ctx.querier.select(selector.matchers)) {
      const run = withoutStale(
        found.samples(minRef - lookback + 1, maxRef + lookback, this.scratch),
      );
      const series: Series = { metric: found.labels, t: [], f: [], dropName: false };
      for (const ts of this.timestamps) {
        const ref = this.refTime(ts, selector.at, selector.offsetMs);
        const from = firstAfter(run.t, ref - lookback);
        const to = firstAfter(run.t, ref + lookback);
        if (to === from) continue;
        let i = from;
        while (i < to && run.t[i] < ref) i++;
        let value: number;
        if (i < to && run.t[i] === ref) value = run.v[i];
        else if (i > from && i < to) {
          const [t1, y1, t2, y2] = [run.t[i - 1], run.v[i - 1], run.t[i], run.v[i]];
          value = y1 + ((y2 - y1) * (ref - t1)) / (t2 - t1);
        } else if (i > from) value = run.v[i - 1];
        else continue;
        series.t.push(ts);
        series.f.push(value);
      }
      if (series.t.length > 0) {
        this.hold(series.t.length);
        out.push(series);
      }
    }
    return out;
  }

  /** A range vector at the single step of an instant query. */
  private matrixSelectorInstant(expr: MatrixSelector): Series[] {
    const ref = this.refTime(this.start, expr.selector.at, expr.selector.offsetMs);
    const out: Series[] = [];
    for (const found of this.ctx.querier.select(expr.selector.matchers)) {
      const run = found.samples(ref - expr.rangeMs + 1, ref);
      const series = seriesFromRun(found.labels, run);
      if (series.t.length > 0) {
        this.hold(series.t.length);
        out.push(series);
      }
    }
    return out;
  }

  // ---- subqueries ---------------------------------------------------------------------------

  /** The inner expression evaluated at the subquery's own steps, covering every outer window. */
  private runSubquery(expr: SubqueryExpr): Series[] {
    const step = expr.stepMs > 0 ? expr.stepMs : this.ctx.defaultSubqueryStepMs;
    const [minRef, maxRef] = this.refTimes(expr.at, expr.offsetMs);
    const lowest = minRef - expr.rangeMs;
    let start = step * Math.floor(lowest / step);
    if (start <= lowest) start += step;
    const inner = new Evaluator(this.ctx, start, maxRef, step);
    if (maxRef < start) return [];
    return inner.series(expr.expr);
  }

  private subqueryInstant(expr: SubqueryExpr): Series[] {
    const ref = this.refTime(this.start, expr.at, expr.offsetMs);
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
            this.vectorSelector(
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
        return this.vectorSelector(arg, true).map((series) => ({ ...series, dropName: true }));
      }
    }
    if (name === 'absent') {
      return absentSeries(this.series(expr.args[0]), expr.args[0], this.timestamps, false);
    }
    const queryValue = this.queryContextValue(name);
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
    const fn = VECTOR_FUNCTIONS.get(name);
    if (fn === undefined) throw new PromqlEvalError(`function "${name}" is not supported`);
    const strings = expr.args.map(stringValue);
    if (name.startsWith('sort') && !this.isInstant) {
      this.ctx.annotations.warn(
        'sort is ineffective for range queries since results are always ordered by labels',
        expr.pos,
      );
    }
    const annotations = this.ctx.annotations;
    return this.rangeEval(expr.args, (vectors, ts) =>
      fn({ vectors, strings, ts, annotations, args: expr.args }),
    );
  }

  /** `start()`, `end()`, `range()` and `step()`: the query's own, in seconds, at every depth. */
  private queryContextValue(name: string): number | undefined {
    const { queryStart, queryEnd, queryStepMs } = this.ctx;
    switch (name) {
      case 'start':
        return queryStart / 1000;
      case 'end':
        return queryEnd / 1000;
      case 'range':
        return (queryEnd - queryStart) / 1000;
      case 'step':
        return queryStart === queryEnd ? 0 : queryStepMs / 1000;
      default:
        return undefined;
    }
  }

  /** A function over a range vector (or subquery), evaluated per series and step. */
  private rangeFunctionCall(expr: Call, matrixIndex: number): Series[] {
    const name = expr.func.name;
    const fn = RANGE_FUNCTIONS.get(name);
    if (fn === undefined) throw new PromqlEvalError(`function "${name}" is not supported`);
    const scalars = expr.args.map((arg, i) =>
      i === matrixIndex ? undefined : this.scalarPerStep(arg),
    );
    const arg = unwrapParens(expr.args[matrixIndex]);
    const dropName = !keepsMetricName(name);
    const out: Series[] = [];
    /** Emits the function's value at each step from one series' points (oldest first). */
    const selectorOf = arg.kind === 'matrixSelector' ? arg.selector : undefined;
    const anchored = selectorOf?.anchored === true;
    const smoothed = selectorOf?.smoothed === true;
    if (anchored && !ANCHORED_SAFE.includes(name)) {
      throw new PromqlEvalError(
        `anchored modifier can only be used with: ${ANCHORED_SAFE.join(', ')} - not with ${name}`,
      );
    }
    if (smoothed && !SMOOTHED_SAFE.includes(name)) {
      throw new PromqlEvalError(
        `smoothed modifier can only be used with: ${SMOOTHED_SAFE.join(', ')} - not with ${name}`,
      );
    }
    // An anchored range reaches back one lookback for its anchor; a smoothed one also forward.
    const before = anchored || smoothed ? this.ctx.lookbackMs : 0;
    const after = smoothed ? this.ctx.lookbackMs : 0;
    // The scalar arguments at the step being computed: one array for every window (no function
    // keeps it).
    const stepScalars = scalars.filter((s): s is number[] => s !== undefined);
    const args: number[] = stepScalars.map(() => NaN);
    const emit = (
      metric: Labels,
      inputDropName: boolean,
      t: Float64Array,
      f: Float64Array,
      at: AtModifier,
      offsetMs: number,
      rangeMs: number,
    ) => {
      const series: Series = { metric, t: [], f: [], dropName: dropName || inputDropName };
      const timestamps = this.timestamps;
      for (let step = 0; step < timestamps.length; step++) {
        const ts = timestamps[step];
        const ref = this.refTime(ts, at, offsetMs);
        // The window is (ref - range, ref], widened for anchored and smoothed ranges: views on
        // the points, no copies.
        const from = firstAfter(t, ref - rangeMs - before);
        const to = firstAfter(t, ref + after);
        if (to === from) continue;
        for (let k = 0; k < stepScalars.length; k++) args[k] = stepScalars[k][step];
        const value = fn({
          t: t.subarray(from, to),
          f: f.subarray(from, to),
          ts,
          rangeStart: ref - rangeMs,
          rangeEnd: ref,
          rangeMs,
          args,
          anchored,
          smoothed,
        });
        if (value === undefined) continue;
        series.t.push(ts);
        series.f.push(value);
      }
      if (series.t.length > 0) out.push(series);
    };
    if (arg.kind === 'matrixSelector') {
      const { selector, rangeMs } = arg;
      const [minRef, maxRef] = this.refTimes(selector.at, selector.offsetMs);
      for (const found of this.ctx.querier.select(selector.matchers)) {
        this.checkDeadline();
        const run = withoutStale(
          found.samples(minRef - rangeMs - before + 1, maxRef + after, this.scratch),
        );
        // One series' samples over the whole query are held while its windows are computed.
        this.hold(run.t.length);
        emit(found.labels, false, run.t, run.v, selector.at, selector.offsetMs, rangeMs);
        this.release(run.t.length);
      }
    } else if (arg.kind === 'subquery') {
      const innerSeries = this.runSubquery(arg);
      for (const inner of innerSeries) {
        emit(
          inner.metric,
          inner.dropName,
          Float64Array.from(inner.t),
          Float64Array.from(inner.f),
          arg.at,
          arg.offsetMs,
          arg.rangeMs,
        );
      }
      this.release(pointCount(innerSeries));
    } else {
      throw new PromqlEvalError(`unexpected range vector argument in call to "${name}"`);
    }
    this.hold(pointCount(out));
    if (name === 'rate' || name === 'increase') this.noteNonCounters(out, expr.args[matrixIndex]);
    if (name === 'quantile_over_time') {
      const q = scalars[0]?.find((v) => Number.isNaN(v) || v < 0 || v > 1);
      if (q !== undefined && out.length > 0) {
        this.ctx.annotations.warn(
          `quantile value should be between 0 and 1, got ${goFormatG(q)}`,
          expr.args[0].pos,
        );
      }
    }
    if (name === 'absent_over_time') return absentSeries(out, arg, this.timestamps, true);
    return out;
  }

  /** Upstream's info for `rate`/`increase` of a metric whose name does not say it is a counter. */
  private noteNonCounters(out: Series[], arg: Expr): void {
    let counter = '';
    for (const series of out) {
      const name = series.metric.get(METRIC_NAME);
      // Series of one query mostly share their name: it is checked once.
      if (name === '' || name === counter) continue;
      if (/_(total|sum|count|bucket)$/.test(name)) {
        counter = name;
        continue;
      }
      this.ctx.annotations.info(
        `metric might not be a counter, name does not end in _total/_sum/_count/_bucket: ${JSON.stringify(name)}`,
        arg.pos,
      );
    }
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
      return this.rangeEval([expr.lhs, expr.rhs], ([l, r]) => {
        switch (op) {
          case 'and':
            return vectorAnd(l, r, matching);
          case 'or':
            return vectorOr(l, r, matching);
          case 'unless':
            return vectorUnless(l, r, matching);
          default:
            return vectorBinop(op, l, r, matching, returnBool);
        }
      });
    }
    if (lt === 'vector') {
      return this.rangeEval([expr.lhs, expr.rhs], ([l, r]) =>
        vectorScalarBinop(op, l, r[0].f, false, returnBool),
      );
    }
    return this.rangeEval([expr.lhs, expr.rhs], ([l, r]) =>
      vectorScalarBinop(op, r, l[0].f, true, returnBool),
    );
  }

  private aggregate(expr: AggregateExpr): Series[] {
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
    if (params && expr.param) this.checkParams(expr, params);
    const result = aggregate(expr, input, {
      timestamps: this.timestamps,
      params,
      label,
      labelText,
    });
    this.release(pointCount(input));
    this.hold(pointCount(result));
    return result;
  }

  /** Upstream's warnings for a `quantile` φ or a `limit_ratio` ratio out of range. */
  private checkParams(expr: AggregateExpr, params: number[]): void {
    const pos = (expr.param as Expr).pos;
    // Go's math.Max and math.Min: NaN wins.
    let max = -Number.MAX_VALUE;
    let min = Number.MAX_VALUE;
    for (const p of params) {
      max = Number.isNaN(p) || Number.isNaN(max) ? NaN : Math.max(max, p);
      min = Number.isNaN(p) || Number.isNaN(min) ? NaN : Math.min(min, p);
    }
    const warn = (message: string) => this.ctx.annotations.warn(message, pos);
    if (expr.op === 'quantile') {
      if (params.some(Number.isNaN)) warn('quantile value should be between 0 and 1, got NaN');
      if (max > 1) warn(`quantile value should be between 0 and 1, got ${goFormatG(max)}`);
      if (min < 0) warn(`quantile value should be between 0 and 1, got ${goFormatG(min)}`);
    }
    if (expr.op === 'limit_ratio' && !params.some(Number.isNaN)) {
      if (max > 1)
        warn(`ratio value should be between -1 and 1, got ${goFormatG(max)}, capping to 1`);
      if (min < -1)
        warn(`ratio value should be between -1 and 1, got ${goFormatG(min)}, capping to -1`);
    }
  }

  // ---- step-wise combination ----------------------------------------------------------------

  /**
   * Evaluates the operands, then calls `fn` at every step with the operands' vectors at that
   * step (a scalar is a one-sample vector, a string operand an empty one) and collects its output
   * into series. Two outputs with the same labels at one step are upstream's error.
   */
  private rangeEval(
    operands: readonly Expr[],
    fn: (vectors: Vector[], ts: number) => Vector,
  ): Series[] {
    const inputs = operands.map((e) => (typeOf(e) === 'string' ? [] : this.series(e)));
    const cursors = inputs.map((list) => list.map(() => 0));
    if (this.isInstant) {
      const vectors = inputs.map((list) => list.flatMap((s) => sampleAt(s, this.start)));
      const out = fn(vectors, this.start);
      for (const list of inputs) this.release(pointCount(list));
      this.hold(out.length);
      return out.map((s) => ({
        metric: s.metric,
        t: [this.start],
        f: [s.f],
        dropName: s.dropName,
      }));
    }
    const byKey = new Map<string, Series & { last: number }>();
    const order: Series[] = [];
    for (const ts of this.timestamps) {
      this.checkDeadline();
      const vectors = inputs.map((list, i) => {
        const vector: Vector = [];
        list.forEach((s, j) => {
          const at = cursors[i][j];
          if (at < s.t.length && s.t[at] === ts) {
            vector.push({ metric: s.metric, f: s.f[at], t: ts, dropName: s.dropName });
            cursors[i][j] = at + 1;
          }
        });
        return vector;
      });
      for (const sample of fn(vectors, ts)) {
        let series = byKey.get(sample.metric.key);
        if (series === undefined) {
          series = { metric: sample.metric, t: [], f: [], dropName: sample.dropName, last: NaN };
          byKey.set(sample.metric.key, series);
          order.push(series);
        } else if (series.last === ts) {
          throw new PromqlEvalError('vector cannot contain metrics with the same labelset');
        }
        series.last = ts;
        series.t.push(ts);
        series.f.push(sample.f);
      }
    }
    for (const list of inputs) this.release(pointCount(list));
    this.hold(pointCount(order));
    return order.map(({ metric, t, f, dropName }) => ({ metric, t, f, dropName }));
  }

  /**
   * Counts points a node's result holds towards the query's limit; a parent releases its
   * operands' points once it has built its own result, so the count follows what is in memory.
   */
  private hold(points: number): void {
    this.ctx.samples += points;
    if (this.ctx.samples > this.ctx.maxSamples) throw new TooManySamplesError('query execution');
  }

  private release(points: number): void {
    this.ctx.samples -= points;
  }

  private checkDeadline(): void {
    if (Date.now() > this.ctx.deadline) throw new QueryTimeoutError('expression evaluation');
  }
}
