import type { Call, Expr, SubqueryExpr } from '../ast';
import { METRIC_NAME } from '../../tsdb/labels';
import type { SampleScratch } from '../../tsdb/queryable';
import type { Annotations } from './annotations';
import { PromqlEvalError } from './errors';
import type { QueryContext } from './evaluator';
import { goFormatG } from './float-math';
import { absentSeries } from './label-functions';
import { unwrapParens } from './literal-args';
import { checkDeadline, holdPoints, releasePoints } from './query-limits';
import {
  checkRangeModifiers,
  isCounterName,
  keepsMetricName,
  RANGE_FUNCTIONS,
} from './range-functions';
import { windowedSeries, type RangeWindows } from './range-windows';
import { DistinctLabelsets, withoutMetadata } from './name-removal';
import { pointCount, withoutStale } from './series-runs';
import type { StepSelectors } from './step-selectors';
import type { Series } from './values';

/** What a range function's evaluation needs of the evaluator it runs in. */
export interface RangeFunctionEvaluation {
  readonly ctx: QueryContext;
  readonly selectors: StepSelectors;
  /** Where one series' samples are read at a time. */
  readonly scratch: SampleScratch;
  readonly timestamps: readonly number[];
  scalarPerStep(arg: Expr): number[];
  runSubquery(arg: SubqueryExpr): Series[];
}

/**
 * A function over a range vector (or subquery), evaluated per series and step. With `each`,
 * every result series is handed over as it is computed rather than kept (not for
 * `absent_over_time`, which needs them all).
 */
export function evalRangeFunction(
  ev: RangeFunctionEvaluation,
  expr: Call,
  matrixIndex: number,
  each?: (series: Series) => void,
): Series[] {
  const name = expr.func.name;
  const fn = RANGE_FUNCTIONS.get(name);
  if (fn === undefined) throw new PromqlEvalError(`function "${name}" is not supported`);
  const scalars = expr.args.map((arg, i) =>
    i === matrixIndex ? undefined : ev.scalarPerStep(arg),
  );
  const arg = unwrapParens(expr.args[matrixIndex]);
  const out: Series[] = [];
  const selectorOf = arg.kind === 'matrixSelector' ? arg.selector : undefined;
  const anchored = selectorOf?.anchored === true;
  const smoothed = selectorOf?.smoothed === true;
  checkRangeModifiers(name, anchored, smoothed);
  // An anchored range reaches back one lookback for its anchor; a smoothed one also forward.
  const before = anchored || smoothed ? ev.ctx.lookbackMs : 0;
  const after = smoothed ? ev.ctx.lookbackMs : 0;
  const stepScalars = scalars.filter((s): s is number[] => s !== undefined);
  const windows: RangeWindows = {
    fn,
    timestamps: ev.timestamps,
    stepScalars,
    args: stepScalars.map(() => NaN),
    before,
    after,
    anchored,
    smoothed,
    dropName: !keepsMetricName(name),
  };
  // Upstream's info for `rate`/`increase` of a metric whose name does not say it is a counter;
  // a query's series mostly share their name, looked at once.
  const namesSeen = name === 'rate' || name === 'increase' ? new Set<string>() : undefined;
  // Unless removal is delayed, the name goes at once and the series must stay distinct (upstream
  // checks the whole matrix, whether or not the series meet at a step).
  const distinct =
    ev.ctx.delayedNameRemoval || name === 'absent_over_time' ? undefined : new DistinctLabelsets();
  let emitted = 0;
  const emit = (computed: Series | undefined) => {
    if (computed === undefined) return;
    emitted++;
    if (namesSeen !== undefined)
      noteNonCounter(ev.ctx.annotations, namesSeen, computed, expr.args[matrixIndex]);
    const series =
      distinct !== undefined && computed.dropName
        ? { ...computed, metric: withoutMetadata(computed.metric) }
        : computed;
    distinct?.add(series.metric);
    if (each === undefined) {
      out.push(series);
      return;
    }
    holdPoints(ev.ctx, series.t.length);
    each(series);
    releasePoints(ev.ctx, series.t.length);
  };
  if (arg.kind === 'matrixSelector') {
    const { selector, rangeMs } = arg;
    const [minRef, maxRef] = ev.selectors.refTimes(selector.at, selector.offsetMs);
    const refs = ev.selectors.refTimesAtSteps(selector.at, selector.offsetMs);
    for (const found of ev.ctx.querier.select(selector.matchers)) {
      checkDeadline(ev.ctx);
      const run = withoutStale(
        found.samples(minRef - rangeMs - before + 1, maxRef + after, ev.scratch),
      );
      // One series' samples over the whole query are held while its windows are computed.
      holdPoints(ev.ctx, run.t.length);
      emit(windowedSeries(windows, found.labels, false, run.t, run.v, refs, rangeMs));
      releasePoints(ev.ctx, run.t.length);
    }
  } else if (arg.kind === 'subquery') {
    const innerSeries = ev.runSubquery(arg);
    const refs = ev.selectors.refTimesAtSteps(arg.at, arg.offsetMs);
    const { rangeMs } = arg;
    for (const inner of innerSeries) {
      const [t, f] = [Float64Array.from(inner.t), Float64Array.from(inner.f)];
      emit(windowedSeries(windows, inner.metric, inner.dropName, t, f, refs, rangeMs));
    }
    releasePoints(ev.ctx, pointCount(innerSeries));
  } else {
    throw new PromqlEvalError(`unexpected range vector argument in call to "${name}"`);
  }
  holdPoints(ev.ctx, pointCount(out));
  if (name === 'quantile_over_time') {
    const q = scalars[0]?.find((v) => Number.isNaN(v) || v < 0 || v > 1);
    if (q !== undefined && emitted > 0) {
      ev.ctx.annotations.warn(
        `quantile value should be between 0 and 1, got ${goFormatG(q)}`,
        expr.args[0].pos,
      );
    }
  }
  if (name === 'absent_over_time') return absentSeries(out, arg, ev.timestamps, true);
  return out;
}

/** Upstream's info for `rate`/`increase` of a metric whose name does not say it is a counter. */
function noteNonCounter(
  annotations: Annotations,
  seen: Set<string>,
  series: Series,
  arg: Expr,
): void {
  const name = series.metric.get(METRIC_NAME);
  if (name === '' || seen.has(name)) return;
  seen.add(name);
  if (isCounterName(name)) return;
  annotations.info(
    `metric might not be a counter, name does not end in _total/_sum/_count/_bucket: ${JSON.stringify(name)}`,
    arg.pos,
  );
}
