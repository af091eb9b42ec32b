import type { PositionRange } from './ast';
import { goPow } from './engine/float-math';

/**
 * A duration written as arithmetic (`[5m + step()]`, `offset -min_of(step(), 1s)`), in seconds as
 * upstream computes it. Constant ones are computed while parsing; ones that use `step()` or
 * `range()` when the query runs.
 */
export type DurationExpr =
  | {
      readonly kind: 'literal';
      readonly seconds: number;
      readonly ms?: number;
      readonly pos: PositionRange;
    }
  | { readonly kind: 'step' | 'range'; readonly pos: PositionRange }
  | {
      readonly kind: 'unary';
      readonly op: '+' | '-';
      readonly expr: DurationExpr;
      readonly pos: PositionRange;
    }
  | {
      readonly kind: 'binary';
      readonly op: '+' | '-' | '*' | '/' | '%' | '^';
      readonly lhs: DurationExpr;
      readonly rhs: DurationExpr;
      readonly pos: PositionRange;
    }
  | {
      readonly kind: 'min_of' | 'max_of';
      readonly lhs: DurationExpr;
      readonly rhs: DurationExpr;
      readonly pos: PositionRange;
    };

/** What `step()` and `range()` mean in one query (ms); `step()` is 0 in an instant query. */
export interface DurationContext {
  readonly stepMs: number;
  readonly rangeMs: number;
}

/** Why a duration expression has no usable value, with where it is. */
export class DurationError extends Error {
  constructor(
    readonly pos: PositionRange,
    readonly reason: string,
  ) {
    super(`${pos.start}:${pos.end}: ${reason}`);
  }
}

/** Whether the expression needs the query's step or range. */
export function usesQueryContext(expr: DurationExpr): boolean {
  switch (expr.kind) {
    case 'step':
    case 'range':
      return true;
    case 'literal':
      return false;
    case 'unary':
      return usesQueryContext(expr.expr);
    default:
      return usesQueryContext(expr.lhs) || usesQueryContext(expr.rhs);
  }
}

/** The expression's value in seconds. */
export function evaluateDuration(expr: DurationExpr, context: DurationContext): number {
  switch (expr.kind) {
    case 'literal':
      return expr.seconds;
    case 'step':
      return context.stepMs / 1000;
    case 'range':
      return context.rangeMs / 1000;
    case 'unary': {
      const value = evaluateDuration(expr.expr, context);
      return expr.op === '-' ? -value : value;
    }
    case 'min_of':
      return Math.min(evaluateDuration(expr.lhs, context), evaluateDuration(expr.rhs, context));
    case 'max_of':
      return Math.max(evaluateDuration(expr.lhs, context), evaluateDuration(expr.rhs, context));
    case 'binary': {
      const lhs = evaluateDuration(expr.lhs, context);
      const rhs = evaluateDuration(expr.rhs, context);
      switch (expr.op) {
        case '+':
          return lhs + rhs;
        case '-':
          return lhs - rhs;
        case '*':
          return lhs * rhs;
        case '/':
          if (rhs === 0) throw new DurationError(expr.pos, 'division by zero');
          return lhs / rhs;
        case '%':
          if (rhs === 0) throw new DurationError(expr.pos, 'modulo by zero');
          return lhs % rhs;
        case '^':
          return goPow(lhs, rhs);
      }
    }
  }
}

/** Seconds to whole milliseconds, refusing what upstream refuses. */
export function durationMs(seconds: number, allowNegative: boolean, pos: PositionRange): number {
  if (!Number.isFinite(seconds)) throw new DurationError(pos, 'duration is NaN or infinite');
  if (seconds <= 0 && !allowNegative)
    throw new DurationError(pos, 'duration must be greater than 0');
  if (Math.abs(seconds) > 9223372036.854776)
    throw new DurationError(pos, 'duration is out of range');
  return Math.trunc(seconds * 1000);
}
