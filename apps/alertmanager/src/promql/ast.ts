/**
 * The PromQL syntax tree: what the parser produces, the type checker validates and the evaluator
 * walks. Every node knows where it came from in the query (`pos`, byte offsets as upstream gives
 * them) so errors can point at it.
 */

/** The four kinds of value an expression yields, named as upstream documents them. */
export type ValueType = 'scalar' | 'vector' | 'matrix' | 'string';

import type { DurationExpr } from './durations';

/** A span of the query text: `start` inclusive, `end` exclusive. */
export interface PositionRange {
  readonly start: number;
  readonly end: number;
}

export type MatchType = '=' | '!=' | '=~' | '!~';

/** One label matcher of a selector, its regex compiled once. */
export interface LabelMatcher {
  readonly name: string;
  readonly type: MatchType;
  readonly value: string;
  readonly matches: (value: string) => boolean;
}

export type AggregationOp =
  | 'sum'
  | 'avg'
  | 'count'
  | 'min'
  | 'max'
  | 'group'
  | 'stddev'
  | 'stdvar'
  | 'topk'
  | 'bottomk'
  | 'quantile'
  | 'count_values'
  | 'limitk'
  | 'limit_ratio';

export type ArithmeticOp = '+' | '-' | '*' | '/' | '%' | '^' | 'atan2';
export type ComparisonOp = '==' | '!=' | '>' | '<' | '>=' | '<=';
export type SetOp = 'and' | 'or' | 'unless';
export type BinaryOp = ArithmeticOp | ComparisonOp | SetOp;

/** How a selector's evaluation time is pinned by `@`. */
export type AtModifier =
  | { readonly kind: 'none' }
  | { readonly kind: 'timestamp'; readonly ms: number }
  | { readonly kind: 'start' }
  | { readonly kind: 'end' };

export interface NumberLiteral {
  readonly kind: 'number';
  readonly value: number;
  readonly pos: PositionRange;
}

export interface StringLiteral {
  readonly kind: 'string';
  readonly value: string;
  /** The literal as written, quotes included. */
  readonly raw: string;
  readonly pos: PositionRange;
}

export interface VectorSelector {
  readonly kind: 'vectorSelector';
  /** The metric name written outside braces, or '' when there is none. */
  readonly name: string;
  readonly matchers: readonly LabelMatcher[];
  /** Offset in milliseconds (positive looks back). */
  readonly offsetMs: number;
  /** An offset that uses `step()` or `range()`, computed when the query runs. */
  readonly offsetExpr?: DurationExpr;
  readonly at: AtModifier;
  /** `anchored`: a range also takes the last sample before it (experimental). */
  readonly anchored?: boolean;
  /** `smoothed`: values interpolated at the window's edges (experimental). */
  readonly smoothed?: boolean;
  readonly pos: PositionRange;
}

export interface MatrixSelector {
  readonly kind: 'matrixSelector';
  readonly selector: VectorSelector;
  readonly rangeMs: number;
  readonly rangeExpr?: DurationExpr;
  readonly pos: PositionRange;
}

export interface SubqueryExpr {
  readonly kind: 'subquery';
  readonly expr: Expr;
  readonly rangeMs: number;
  /** The resolution; 0 means the default evaluation interval. */
  readonly stepMs: number;
  readonly offsetMs: number;
  readonly rangeExpr?: DurationExpr;
  readonly stepExpr?: DurationExpr;
  readonly offsetExpr?: DurationExpr;
  readonly at: AtModifier;
  readonly pos: PositionRange;
}

export interface AggregateExpr {
  readonly kind: 'aggregate';
  readonly op: AggregationOp;
  readonly expr: Expr;
  /** The first argument of `topk`, `bottomk`, `quantile`, `count_values`, `limitk`, `limit_ratio`. */
  readonly param: Expr | undefined;
  readonly grouping: readonly string[];
  readonly without: boolean;
  readonly pos: PositionRange;
}

/** `on`/`ignoring` and `group_left`/`group_right` of a binary operation between vectors. */
export interface VectorMatching {
  readonly card: 'one-to-one' | 'many-to-one' | 'one-to-many' | 'many-to-many';
  /** The `on` or `ignoring` labels. */
  readonly labels: readonly string[];
  /** True for `on`, false for `ignoring` (or no clause). */
  readonly on: boolean;
  /** The extra labels of `group_left(...)` / `group_right(...)`. */
  readonly include: readonly string[];
  /** `fill_left(v)` / `fill(v)`: the value of a missing left-hand sample. */
  readonly fillLeft?: number;
  /** `fill_right(v)` / `fill(v)`: the value of a missing right-hand sample. */
  readonly fillRight?: number;
}

export interface BinaryExpr {
  readonly kind: 'binary';
  readonly op: BinaryOp;
  readonly lhs: Expr;
  readonly rhs: Expr;
  readonly returnBool: boolean;
  /** Undefined unless both sides are instant vectors. */
  readonly matching: VectorMatching | undefined;
  readonly pos: PositionRange;
}

export interface UnaryExpr {
  readonly kind: 'unary';
  readonly op: '+' | '-';
  readonly expr: Expr;
  readonly pos: PositionRange;
}

export interface ParenExpr {
  readonly kind: 'paren';
  readonly expr: Expr;
  readonly pos: PositionRange;
}

export interface Call {
  readonly kind: 'call';
  readonly func: FunctionSignature;
  readonly args: readonly Expr[];
  readonly pos: PositionRange;
}

export type Expr =
  | NumberLiteral
  | StringLiteral
  | VectorSelector
  | MatrixSelector
  | SubqueryExpr
  | AggregateExpr
  | BinaryExpr
  | UnaryExpr
  | ParenExpr
  | Call;

/** A function's name, argument types and result type, as upstream's function table. */
export interface FunctionSignature {
  readonly name: string;
  readonly argTypes: readonly ValueType[];
  /** 0: exactly `argTypes`; n > 0: up to n more of the last type; -1: any number more. */
  readonly variadic: number;
  readonly returnType: ValueType;
  readonly experimental: boolean;
}

/**
 * The type an expression yields. An operation yields a scalar when both its sides do, a vector
 * otherwise; a chain of operations (`a + b + ...`, nested on its left) is followed in a loop, so
 * that the longest chain a query may hold takes no stack.
 */
export function typeOf(expr: Expr): ValueType {
  let operation = false;
  let at = expr;
  for (;;) {
    if (at.kind === 'binary') {
      operation = true;
      if (typeOf(at.rhs) !== 'scalar') return 'vector';
      at = at.lhs;
    } else if (at.kind === 'unary' || at.kind === 'paren') {
      at = at.expr;
    } else {
      const own = operandType(at);
      return operation && own !== 'scalar' ? 'vector' : own;
    }
  }
}

function operandType(expr: Exclude<Expr, BinaryExpr | UnaryExpr | ParenExpr>): ValueType {
  switch (expr.kind) {
    case 'number':
      return 'scalar';
    case 'string':
      return 'string';
    case 'vectorSelector':
    case 'aggregate':
      return 'vector';
    case 'matrixSelector':
    case 'subquery':
      return 'matrix';
    case 'call':
      return expr.func.returnType;
  }
}

/** Upstream's names of the types in error messages. */
export function documentedType(type: ValueType | 'none'): string {
  switch (type) {
    case 'vector':
      return 'instant vector';
    case 'matrix':
      return 'range vector';
    default:
      return type;
  }
}
