import type { AtModifier, Expr } from '../ast';

/**
 * Functions whose value can change with the evaluation time even when their arguments are pinned
 * by `@` (clock and calendar functions, `predict_linear`, the query-context functions), or that
 * return the timestamps of their argument's samples: an expression calling one is not rerun.
 */
const TIME_DEPENDENT = new Set([
  'days_in_month',
  'day_of_month',
  'day_of_week',
  'day_of_year',
  'end',
  'hour',
  'minute',
  'month',
  'year',
  'predict_linear',
  'range',
  'start',
  'step',
  'time',
  'timestamp',
]);

/**
 * The step-invariance check of Prometheus's test runner: an instant eval at `atMs` is run again
 * with every selector and subquery pinned to `@ atMs` (those already pinned to a time, and
 * everything inside a subquery, left as written) at other evaluation times, and must give the
 * same result each time. Returns the times to rerun at, or none when the expression calls a
 * function whose value depends on the evaluation time itself.
 */
export function stepInvariantTimes(expr: Expr, atMs: number): { expr: Expr; times: number[] } {
  const pinned = pinTo(expr, { kind: 'timestamp', ms: atMs });
  if (pinned === undefined) return { expr, times: [] };
  const times =
    atMs === 0 ? [-1000, 0, 1000] : [-10 * atMs, 0, Math.trunc(atMs / 5), atMs, 10 * atMs];
  return { expr: pinned, times };
}

function pinTo(expr: Expr, at: AtModifier): Expr | undefined {
  const each = (exprs: readonly Expr[]): Expr[] | undefined => {
    const out: Expr[] = [];
    for (const e of exprs) {
      const pinned = pinTo(e, at);
      if (pinned === undefined) return undefined;
      out.push(pinned);
    }
    return out;
  };
  switch (expr.kind) {
    case 'number':
    case 'string':
      return expr;
    case 'vectorSelector':
    case 'subquery':
      return expr.at.kind === 'timestamp' ? expr : { ...expr, at };
    case 'matrixSelector': {
      const selector =
        expr.selector.at.kind === 'timestamp' ? expr.selector : { ...expr.selector, at };
      return { ...expr, selector };
    }
    case 'unary':
    case 'paren': {
      const inner = pinTo(expr.expr, at);
      return inner && { ...expr, expr: inner };
    }
    case 'aggregate': {
      const args = each(expr.param ? [expr.param, expr.expr] : [expr.expr]);
      if (args === undefined) return undefined;
      return expr.param ? { ...expr, param: args[0], expr: args[1] } : { ...expr, expr: args[0] };
    }
    case 'binary': {
      const sides = each([expr.lhs, expr.rhs]);
      return sides && { ...expr, lhs: sides[0], rhs: sides[1] };
    }
    case 'call': {
      if (TIME_DEPENDENT.has(expr.func.name)) return undefined;
      const args = each(expr.args);
      return args && { ...expr, args };
    }
  }
}
