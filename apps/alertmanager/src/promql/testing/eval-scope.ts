import type { Labels } from '../../tsdb/labels';
import type { Expr, VectorSelector } from '../ast';

/** Series of the current load block that the store does not hold, by what they carry. */
export interface HiddenSeries {
  /** Native histograms: `{{...}}` values, or the custom-bucket histograms of `load_with_nhcb`. */
  readonly histograms: Labels[];
  /** Series given start timestamps (`metric@st`). */
  readonly startTimestamps: Labels[];
}

/**
 * Why an eval cannot be checked, if it reads a series the store does not hold: one of its
 * selectors (by name or by any matcher) matches a series the block loaded as a native histogram
 * or with start timestamps. Undefined when every selector reads only float series.
 */
export function unreadableSeries(expr: Expr, hidden: HiddenSeries): string | undefined {
  for (const selector of selectorsOf(expr)) {
    const histogram = hidden.histograms.find((labels) => selects(selector, labels));
    if (histogram !== undefined) return `reads native histogram series ${histogram}`;
    const started = hidden.startTimestamps.find((labels) => selects(selector, labels));
    if (started !== undefined) return `reads start timestamps of series ${started}`;
  }
  return undefined;
}

function selects(selector: VectorSelector, labels: Labels): boolean {
  return selector.matchers.every((m) => m.matches(labels.get(m.name)));
}

/** The vector selectors of an expression, those inside range selectors and subqueries included. */
export function selectorsOf(expr: Expr): VectorSelector[] {
  switch (expr.kind) {
    case 'number':
    case 'string':
      return [];
    case 'vectorSelector':
      return [expr];
    case 'matrixSelector':
      return [expr.selector];
    case 'subquery':
    case 'unary':
    case 'paren':
      return selectorsOf(expr.expr);
    case 'aggregate':
      return [...(expr.param ? selectorsOf(expr.param) : []), ...selectorsOf(expr.expr)];
    case 'binary':
      return [...selectorsOf(expr.lhs), ...selectorsOf(expr.rhs)];
    case 'call':
      return expr.args.flatMap(selectorsOf);
  }
}
