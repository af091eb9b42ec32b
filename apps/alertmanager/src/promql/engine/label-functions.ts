import { compileRe2, RegexpSyntaxError } from '../../re2';
import { Labels, METRIC_NAME } from '../../tsdb/labels';
import type { Expr } from '../ast';
import { PromqlEvalError } from './errors';
import { isValidLabelName } from './label-names';
import { unwrapParens } from './literal-args';
import type { Series } from './values';

// The functions that make or rewrite labels: label_replace, label_join, absent and
// absent_over_time. Arguments are checked before the input vector is evaluated (`input` is
// called last), so a bad argument is the error even when the input fails too.

/** `label_replace(v, dst, replacement, src, regex)`. */
export function labelReplace(
  input: () => Series[],
  dst: string,
  repl: string,
  src: string,
  pattern: string,
): Series[] {
  let regex;
  try {
    regex = compileRe2(`^(?s:${pattern})$`);
  } catch (error) {
    if (error instanceof RegexpSyntaxError) {
      throw new PromqlEvalError(`invalid regular expression in label_replace(): ${pattern}`);
    }
    throw error;
  }
  if (!isValidLabelName(dst))
    throw new PromqlEvalError(`invalid destination label name in label_replace(): ${dst}`);
  const out = input().map((s) => {
    const value = s.metric.get(src);
    if (!regex.test(value)) return s;
    const replaced = regex.replaceAll(value, repl);
    return {
      ...s,
      metric: s.metric.with(dst, replaced),
      dropName: dst === METRIC_NAME ? false : s.dropName,
    };
  });
  return mergeSameLabelset(out);
}

/** `label_join(v, dst, separator, src...)`. */
export function labelJoin(
  input: () => Series[],
  dst: string,
  separator: string,
  sources: string[],
): Series[] {
  for (const src of sources) {
    if (!isValidLabelName(src))
      throw new PromqlEvalError(`invalid source label name in label_join(): ${src}`);
  }
  if (!isValidLabelName(dst))
    throw new PromqlEvalError(`invalid destination label name in label_join(): ${dst}`);
  const out = input().map((s) => ({
    ...s,
    metric: s.metric.with(dst, sources.map((src) => s.metric.get(src)).join(separator)),
    dropName: dst === METRIC_NAME ? false : s.dropName,
  }));
  return mergeSameLabelset(out);
}

/**
 * `absent` and `absent_over_time`: one series with the labels of `arg`'s equality matchers and
 * the value 1 at each step where `found` has no point; none when every step has one.
 */
export function absentSeries(
  found: Series[],
  arg: Expr,
  timestamps: readonly number[],
  dropName: boolean,
): Series[] {
  const present = new Set<number>();
  for (const s of found) for (const t of s.t) present.add(t);
  const t = timestamps.filter((ts) => !present.has(ts));
  return t.length === 0 ? [] : [{ metric: labelsForAbsent(arg), t, f: t.map(() => 1), dropName }];
}

/** The labels `absent()` reports: the selector's equality matchers, a name matched twice dropped. */
export function labelsForAbsent(arg: Expr): Labels {
  const expr = unwrapParens(arg);
  const matchers =
    expr.kind === 'vectorSelector'
      ? expr.matchers
      : expr.kind === 'matrixSelector'
        ? expr.selector.matchers
        : [];
  const values = new Map<string, string>();
  const seen = new Set<string>();
  for (const m of matchers) {
    if (m.name === METRIC_NAME) continue;
    if (m.type === '=' && !seen.has(m.name)) {
      values.set(m.name, m.value);
      seen.add(m.name);
    } else values.delete(m.name);
  }
  return Labels.from(values);
}

/**
 * Series that end up with the same labels (after `label_replace`, or `__name__` removal) become
 * one when their points do not overlap; overlapping points are upstream's error.
 */
export function mergeSameLabelset(series: Series[]): Series[] {
  const byKey = new Map<string, Series[]>();
  for (const s of series) {
    const list = byKey.get(s.metric.key);
    if (list === undefined) byKey.set(s.metric.key, [s]);
    else list.push(s);
  }
  if (byKey.size === series.length) return series;
  const out: Series[] = [];
  for (const list of byKey.values()) {
    if (list.length === 1) {
      out.push(list[0]);
      continue;
    }
    const points: [number, number][] = [];
    for (const s of list) s.t.forEach((t, i) => points.push([t, s.f[i]]));
    points.sort((a, b) => a[0] - b[0]);
    for (let i = 1; i < points.length; i++) {
      if (points[i][0] === points[i - 1][0]) {
        throw new PromqlEvalError('vector cannot contain metrics with the same labelset');
      }
    }
    out.push({
      metric: list[0].metric,
      t: points.map((p) => p[0]),
      f: points.map((p) => p[1]),
      dropName: list[0].dropName,
    });
  }
  return out;
}
