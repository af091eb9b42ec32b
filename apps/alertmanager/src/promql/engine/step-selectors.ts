import type { AtModifier, MatrixSelector, VectorSelector } from '../ast';
import type { Querier, SampleScratch } from '../../tsdb/queryable';
import { holdPoints, releasePoints, type QueryLimits } from './query-limits';
import { seriesFromRun, withoutStale } from './series-runs';
import { StepPoints } from './step-points';
import { firstAfter } from './time-search';
import type { Series } from './values';

/** What reading stored series needs of the query. */
export interface SelectorContext extends QueryLimits {
  readonly querier: Querier;
  readonly lookbackMs: number;
  /** The query's own start and end, which `@ start()` and `@ end()` mean at every depth. */
  readonly queryStart: number;
  readonly queryEnd: number;
}

/**
 * Reads stored series at an evaluator's steps: the time each step reads at (`@`, `offset`), the
 * latest sample within the lookback of an instant selector (or its `smoothed` interpolation), and
 * a range at an instant query's step. Every series read counts towards the query's points.
 */
export class StepSelectors {
  constructor(
    private readonly ctx: SelectorContext,
    private readonly start: number,
    private readonly end: number,
    private readonly timestamps: readonly number[],
    /** Where one series' samples are read at a time. */
    private readonly scratch: SampleScratch,
  ) {}

  /** The evaluation time a selector reads at for step `ts`: `@` pins it, `offset` shifts it. */
  refTime(ts: number, at: AtModifier, offsetMs: number): number {
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

  /** The time read at for every step, worked out once for a selector rather than per series. */
  refTimesAtSteps(at: AtModifier, offsetMs: number): Float64Array {
    const refs = new Float64Array(this.timestamps.length);
    for (let i = 0; i < refs.length; i++) refs[i] = this.refTime(this.timestamps[i], at, offsetMs);
    return refs;
  }

  refTimes(at: AtModifier, offsetMs: number): [number, number] {
    const first = this.refTime(this.start, at, offsetMs);
    const last = this.refTime(this.end, at, offsetMs);
    return [Math.min(first, last), Math.max(first, last)];
  }

  /**
   * Each series' latest sample within the lookback window before each step, unless stale; with
   * `sampleTimes`, the sample's timestamp in seconds instead of its value (for `timestamp()`).
   * With `each`, every series is handed over as soon as it is read and not kept.
   */
  instant(
    selector: VectorSelector,
    sampleTimes = false,
    keepValue = false,
    each?: (series: Series) => void,
  ): Series[] {
    if (selector.smoothed && !sampleTimes) return this.smoothed(selector);
    const [minRef, maxRef] = this.refTimes(selector.at, selector.offsetMs);
    const refs = this.refTimesAtSteps(selector.at, selector.offsetMs);
    const lookback = this.ctx.lookbackMs;
    const out: Series[] = [];
    for (const found of this.ctx.querier.select(selector.matchers)) {
      const run = found.samples(minRef - lookback + 1, maxRef, this.scratch);
      const points = new StepPoints(this.timestamps);
      // Steps and samples both ascend (or every step reads one time, under `@`): one walk finds
      // each step's latest sample.
      let next = 0;
      for (let step = 0; step < refs.length; step++) {
        const ref = refs[step];
        if (next > 0 && run.t[next - 1] > ref) next = firstAfter(run.t, ref);
        while (next < run.t.length && run.t[next] <= ref) next++;
        const i = next - 1;
        if (i < 0 || run.t[i] <= ref - lookback || run.stale?.[i] === 1) continue;
        // For `timestamp()` the sample's time in seconds; for `info()` in milliseconds.
        points.push(step, sampleTimes ? (keepValue ? run.t[i] : run.t[i] / 1000) : run.v[i]);
      }
      const series = points.series(found.labels, false);
      if (series === undefined) continue;
      holdPoints(this.ctx, series.t.length);
      if (each === undefined) {
        out.push(series);
        continue;
      }
      each(series);
      releasePoints(this.ctx, series.t.length);
    }
    return out;
  }

  /**
   * A `smoothed` instant selector: at each step, the value interpolated between the samples
   * around the evaluation time (within the lookback on either side), or the sample exactly at it,
   * or the last one before it when none follows.
   */
  private smoothed(selector: VectorSelector): Series[] {
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
        holdPoints(this.ctx, series.t.length);
        out.push(series);
      }
    }
    return out;
  }

  /** A range vector at the single step of an instant query. */
  rangeAtStart(expr: MatrixSelector): Series[] {
    const ref = this.refTime(this.start, expr.selector.at, expr.selector.offsetMs);
    const out: Series[] = [];
    for (const found of this.ctx.querier.select(expr.selector.matchers)) {
      const run = found.samples(ref - expr.rangeMs + 1, ref);
      const series = seriesFromRun(found.labels, run);
      if (series.t.length > 0) {
        holdPoints(this.ctx, series.t.length);
        out.push(series);
      }
    }
    return out;
  }
}
