import type { Expr } from './ast';
import { aggregationPrefix, formatExpr, operatorText, subquerySuffix } from './printer';

/** Upstream's line limit: an expression whose one-line form has more bytes than this is split. */
const MAX_LINE_BYTES = 100;

const INDENT = '  ';

/**
 * An expression pretty-printed as Prometheus's `/api/v1/format_query` prints it: whatever fits in
 * 100 bytes on one line as {@link formatExpr} prints it; a longer binary operation with its
 * operands on lines of their own, indented one step deeper than the operator; a longer
 * aggregation, call or parenthesis with its arguments one per line, indented, and the closing
 * parenthesis on a line of its own.
 */
export function prettifyExpr(expr: Expr): string {
  return new Prettifier().pretty(expr, 0);
}

/** One pass over a tree, with the one-line lengths of its nodes counted once each. */
class Prettifier {
  private readonly lengths = new Map<Expr, number>();

  /** `expr` at nesting `level`: a node on a line of its own starts with `level` indents. */
  pretty(expr: Expr, level: number): string {
    const indent = INDENT.repeat(level);
    const fits = this.byteLength(expr) <= MAX_LINE_BYTES;
    switch (expr.kind) {
      case 'aggregate': {
        if (fits) return indent + formatExpr(expr);
        const param = expr.param === undefined ? '' : `${this.pretty(expr.param, level + 1)},\n`;
        return `${indent}${aggregationPrefix(expr)}(\n${param}${this.pretty(expr.expr, level + 1)}\n${indent})`;
      }
      case 'binary':
        // The operands indent themselves; only the operator's line takes this level's indent.
        if (fits) return indent + formatExpr(expr);
        return `${this.pretty(expr.lhs, level + 1)}\n${indent}${operatorText(expr)}\n${this.pretty(expr.rhs, level + 1)}`;
      case 'call': {
        if (fits || expr.args.length === 0) return indent + formatExpr(expr);
        const args = expr.args.map((arg) => this.pretty(arg, level + 1)).join(',\n');
        return `${indent}${expr.func.name}(\n${args}\n${indent})`;
      }
      case 'paren':
        if (fits) return indent + formatExpr(expr);
        return `${indent}(\n${this.pretty(expr.expr, level + 1)}\n${indent})`;
      case 'subquery':
        // Upstream prints a subquery that fits without the indent of its level, so it starts
        // at the beginning of its line inside a split call or aggregation.
        if (fits) return formatExpr(expr);
        return this.pretty(expr.expr, level) + subquerySuffix(expr);
      case 'unary':
        // The operand is printed at the same level and loses its leading indent to the sign,
        // whether or not it fits: `-sum(` with the body one level in, or `-a` over a split `^`.
        return indent + expr.op + this.pretty(expr.expr, level).trimStart();
      default:
        return indent + formatExpr(expr);
    }
  }

  /**
   * The UTF-8 length of the one-line form, from the children's lengths and the printer's own
   * pieces: printing every subtree again at every level would take time in the square of the
   * depth for a long chain of operations.
   */
  private byteLength(expr: Expr): number {
    const known = this.lengths.get(expr);
    if (known !== undefined) return known;
    const length = this.count(expr);
    this.lengths.set(expr, length);
    return length;
  }

  private count(expr: Expr): number {
    switch (expr.kind) {
      case 'aggregate': {
        const param = expr.param === undefined ? 0 : this.byteLength(expr.param) + 2;
        return bytes(aggregationPrefix(expr)) + 1 + param + this.byteLength(expr.expr) + 1;
      }
      case 'binary':
        return (
          this.byteLength(expr.lhs) + bytes(operatorText(expr)) + 2 + this.byteLength(expr.rhs)
        );
      case 'call': {
        const args = expr.args.reduce((sum, arg) => sum + this.byteLength(arg), 0);
        const commas = Math.max(0, expr.args.length - 1) * 2;
        return bytes(expr.func.name) + 1 + args + commas + 1;
      }
      case 'paren':
        return this.byteLength(expr.expr) + 2;
      case 'subquery':
        return this.byteLength(expr.expr) + bytes(subquerySuffix(expr));
      case 'unary':
        return expr.op.length + this.byteLength(expr.expr);
      default:
        return bytes(formatExpr(expr));
    }
  }
}

function bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}
