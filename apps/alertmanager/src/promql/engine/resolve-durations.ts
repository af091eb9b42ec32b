import type { Expr } from '../ast';
import {
  DurationError,
  durationMs,
  evaluateDuration,
  type DurationContext,
  type DurationExpr,
} from '../durations';
import { PromqlEvalError } from './errors';

/**
 * The tree with every duration that uses `step()` or `range()` computed for this query, as
 * upstream does before evaluating. Trees without such durations come back unchanged.
 */
export function resolveDurations(expr: Expr, context: DurationContext): Expr {
  const ms = (duration: DurationExpr, allowNegative: boolean) => {
    try {
      return durationMs(evaluateDuration(duration, context), allowNegative, duration.pos);
    } catch (error) {
      if (error instanceof DurationError) throw new PromqlEvalError(error.message);
      throw error;
    }
  };
  const walk = (e: Expr): Expr => {
    switch (e.kind) {
      case 'vectorSelector':
        return e.offsetExpr ? { ...e, offsetMs: ms(e.offsetExpr, true), offsetExpr: undefined } : e;
      case 'matrixSelector': {
        const selector = walk(e.selector) as typeof e.selector;
        const rangeMs = e.rangeExpr ? ms(e.rangeExpr, false) : e.rangeMs;
        return selector === e.selector && rangeMs === e.rangeMs
          ? e
          : { ...e, selector, rangeMs, rangeExpr: undefined };
      }
      case 'subquery':
        return {
          ...e,
          expr: walk(e.expr),
          rangeMs: e.rangeExpr ? ms(e.rangeExpr, false) : e.rangeMs,
          stepMs: e.stepExpr ? ms(e.stepExpr, false) : e.stepMs,
          offsetMs: e.offsetExpr ? ms(e.offsetExpr, true) : e.offsetMs,
          rangeExpr: undefined,
          stepExpr: undefined,
          offsetExpr: undefined,
        };
      case 'aggregate':
        return { ...e, expr: walk(e.expr), param: e.param && walk(e.param) };
      case 'binary':
        return { ...e, lhs: walk(e.lhs), rhs: walk(e.rhs) };
      case 'unary':
      case 'paren':
        return { ...e, expr: walk(e.expr) };
      case 'call':
        return { ...e, args: e.args.map(walk) };
      default:
        return e;
    }
  };
  return walk(expr);
}
