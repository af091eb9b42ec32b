import type { AtModifier, Expr, LabelMatcher, VectorSelector } from '../ast';
import { Labels, METRIC_NAME } from '../../tsdb/labels';
import { newLabelMatcher } from '../parser/label-matcher';
import { PromqlEvalError } from './errors';
import type { Series } from './values';

/** The labels that tie a series to the info metrics describing its target. */
const IDENTIFYING = ['instance', 'job'];
const TARGET_INFO = 'target_info';

/** What `info()` needs from the evaluator: info series' values at each step, as a selector reads them. */
export interface InfoSource {
  readonly timestamps: readonly number[];
  /** Each matching series' latest sample per step (the value is its timestamp, for ties). */
  select(matchers: LabelMatcher[], at: AtModifier, offsetMs: number): Series[];
}

function matcher(name: string, type: LabelMatcher['type'], value: string): LabelMatcher {
  const m = newLabelMatcher(name, type, value);
  if (typeof m === 'string') throw new PromqlEvalError(m);
  return m;
}

/** Upstream's choice of info metric names: `target_info` unless the selector names others. */
function effectiveNameMatchers(matchers: LabelMatcher[]): LabelMatcher[] {
  if (matchers.some((m) => m.type === '=' || m.type === '=~')) return matchers;
  if (matchers.length > 0) return [matcher(METRIC_NAME, '=~', '.+_info'), ...matchers];
  return [matcher(METRIC_NAME, '=', TARGET_INFO)];
}

/** The `@` and offset of the first selector in the expression (through subqueries), for info series. */
function selectorTiming(expr: Expr): { at: AtModifier; offsetMs: number } {
  let found: { at: AtModifier; offsetMs: number } | undefined;
  const walk = (e: Expr, subqueryOffset: number, subqueryAt: AtModifier) => {
    if (found) return;
    switch (e.kind) {
      case 'vectorSelector':
        found =
          e.at.kind !== 'none'
            ? { at: e.at, offsetMs: e.offsetMs }
            : { at: subqueryAt, offsetMs: e.offsetMs + subqueryOffset };
        return;
      case 'matrixSelector':
        return walk(e.selector, subqueryOffset, subqueryAt);
      case 'subquery':
        return walk(
          e.expr,
          subqueryOffset + e.offsetMs,
          subqueryAt.kind === 'none' ? e.at : subqueryAt,
        );
      case 'aggregate':
        if (e.param) walk(e.param, subqueryOffset, subqueryAt);
        return walk(e.expr, subqueryOffset, subqueryAt);
      case 'binary':
        walk(e.lhs, subqueryOffset, subqueryAt);
        return walk(e.rhs, subqueryOffset, subqueryAt);
      case 'unary':
      case 'paren':
        return walk(e.expr, subqueryOffset, subqueryAt);
      case 'call':
        for (const a of e.args) walk(a, subqueryOffset, subqueryAt);
        return;
      default:
        return;
    }
  };
  walk(expr, 0, { kind: 'none' });
  return found ?? { at: { kind: 'none' }, offsetMs: 0 };
}

function quoteMeta(text: string): string {
  return text.replace(/[\\.+*?()|[\]{}^$]/g, '\\$&');
}

/**
 * `info(v, {selector})`: adds to each series of `v` the data labels of the info series (by default
 * `target_info`) that share its `instance` and `job`, as upstream (experimental) does.
 */
export function evalInfo(
  base: Series[],
  baseExpr: Expr,
  labelSelector: VectorSelector | undefined,
  source: InfoSource,
): Series[] {
  const dataMatchers = new Map<string, LabelMatcher[]>();
  let nameMatchers: LabelMatcher[] = [];
  if (labelSelector) {
    for (const m of labelSelector.matchers) {
      dataMatchers.set(m.name, [...(dataMatchers.get(m.name) ?? []), m]);
      if (m.name === METRIC_NAME) nameMatchers.push(m);
    }
  } else nameMatchers = [matcher(METRIC_NAME, '=', TARGET_INFO)];
  const effective = effectiveNameMatchers(nameMatchers);
  const ignored = new Set(
    base
      .filter((s) => effective.every((m) => m.matches(s.metric.get(METRIC_NAME))))
      .map((s) => s.metric.key),
  );
  const dropNameMatchers = () => {
    for (const [name, ms] of dataMatchers) {
      const rest = ms.filter((m) => m.name !== METRIC_NAME);
      if (rest.length > 0) dataMatchers.set(name, rest);
      else dataMatchers.delete(name);
    }
  };

  // Info series for the identifying label values the base series have.
  const values = new Map<string, Set<string>>();
  for (const s of base) {
    if (ignored.has(s.metric.key)) continue;
    for (const name of IDENTIFYING) {
      const v = s.metric.get(name);
      if (v === '') continue;
      if (!values.has(name)) values.set(name, new Set());
      values.get(name)?.add(v);
    }
  }
  let infoSeries: Series[] = [];
  if (values.size === 0) dropNameMatchers();
  else {
    const infoMatchers: LabelMatcher[] = [];
    for (const [name, vs] of values)
      infoMatchers.push(matcher(name, '=~', [...vs].map(quoteMeta).join('|')));
    const names: LabelMatcher[] = [];
    for (const ms of dataMatchers.values()) {
      for (const m of ms) (m.name === METRIC_NAME ? names : infoMatchers).push(m);
    }
    dropNameMatchers();
    infoMatchers.push(...effectiveNameMatchers(names));
    const { at, offsetMs } = selectorTiming(baseExpr);
    infoSeries = source.select(infoMatchers, at, offsetMs);
  }

  const signature = (infoName: string, metric: Labels) =>
    `${infoName}\xff${metric.signature(IDENTIFYING, true)}`;
  const infoNames = [...new Set(infoSeries.map((s) => s.metric.get(METRIC_NAME)))];
  const out = new Map<string, Series & { last: number }>();
  const order: Series[] = [];
  const baseCursor = base.map(() => 0);
  const infoCursor = infoSeries.map(() => 0);
  for (const ts of source.timestamps) {
    // The info sample per signature at this step: the newest when several match.
    const bySignature = new Map<string, { metric: Labels; origT: number }>();
    infoSeries.forEach((s, i) => {
      const at = infoCursor[i];
      if (at >= s.t.length || s.t[at] !== ts) return;
      infoCursor[i]++;
      const origT = Math.trunc(s.f[at]);
      const sig = signature(s.metric.get(METRIC_NAME), s.metric);
      const existing = bySignature.get(sig);
      if (existing === undefined || existing.origT < origT)
        bySignature.set(sig, { metric: s.metric, origT });
      else if (existing.origT === origT) {
        throw new PromqlEvalError(
          `found duplicate series for info metric: existing ${existing.metric} @ ${existing.origT}, new ${s.metric} @ ${origT}`,
        );
      }
    });
    base.forEach((s, i) => {
      const at = baseCursor[i];
      if (at >= s.t.length || s.t[at] !== ts) return;
      baseCursor[i]++;
      const value = s.f[at];
      let metric = s.metric;
      if (!ignored.has(s.metric.key)) {
        const added = new Map<string, string>();
        let seen = 0;
        for (const infoName of infoNames) {
          const info = bySignature.get(signature(infoName, s.metric));
          if (info === undefined) continue;
          for (let k = 0; k < info.metric.size; k++) {
            const name = info.metric.names[k];
            const v = info.metric.values[k];
            if (name === METRIC_NAME) continue;
            if (dataMatchers.size > 0 && !dataMatchers.has(name)) continue;
            const current = added.get(name);
            if (current !== undefined && current !== v)
              throw new PromqlEvalError(`conflicting label: ${name}`);
            if (s.metric.has(name)) continue;
            added.set(name, v);
          }
          seen++;
        }
        if (seen === 0) {
          const allMatchEmpty = [...dataMatchers.values()].every((ms) =>
            ms.every((m) => m.matches('')),
          );
          if (!allMatchEmpty) return;
        }
        for (const [name, v] of added) metric = metric.with(name, v);
      }
      let series = out.get(metric.key);
      if (series === undefined) {
        series = { metric, t: [], f: [], dropName: s.dropName, last: NaN };
        out.set(metric.key, series);
        order.push(series);
      } else if (series.last === ts) {
        throw new PromqlEvalError('vector cannot contain metrics with the same labelset');
      }
      series.last = ts;
      series.t.push(ts);
      series.f.push(value);
    });
  }
  return order.map(({ metric, t, f, dropName }) => ({ metric, t, f, dropName }));
}
