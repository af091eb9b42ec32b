import type { Expr } from '../ast';

/** The value of a string argument, through any parentheses. */
export function stringValue(expr: Expr): string | undefined {
  const inner = unwrapParens(expr);
  return inner.kind === 'string' ? inner.value : undefined;
}

export function unwrapParens(expr: Expr): Expr {
  return expr.kind === 'paren' ? unwrapParens(expr.expr) : expr;
}
