import type { SyntaxNode } from '@lezer/common';
import type {
  AggregationOp,
  BinaryExpr,
  BinaryOp,
  Expr,
  VectorMatching,
  VectorSelector,
} from '../ast';
import { FUNCTIONS } from '../functions';
import { PRECEDENCE } from './binary-precedence';
import { childrenOf, Stop } from './node-reader';
import { SelectorReader } from './selector-reader';
import type { ParseProblem } from './parse-error';
import { describeTokenAt } from './token-description';

export type { ParserOptions } from './node-reader';

const BINARY_OPS: Record<string, BinaryOp> = {
  Pow: '^',
  Mul: '*',
  Div: '/',
  Mod: '%',
  Atan2: 'atan2',
  Add: '+',
  Sub: '-',
  Eql: '==',
  Neq: '!=',
  Gte: '>=',
  Gtr: '>',
  Lte: '<=',
  Lss: '<',
  And: 'and',
  Or: 'or',
  Unless: 'unless',
};

/**
 * The grammar binds a postfix modifier to the whole operation on its left, so `a + b @ 1 * 2`
 * arrives as `(a + b @ 1) * 2` once the modifier is moved down to `b`: an operation whose left
 * side is an unparenthesized operation binding looser than itself takes that side's right
 * operand instead, giving upstream's `a + (b @ 1 * 2)`.
 */
function bindTighter(outer: BinaryExpr): BinaryExpr {
  const lhs = outer.lhs;
  if (lhs.kind !== 'binary') return outer;
  const inner = PRECEDENCE[lhs.op];
  const own = PRECEDENCE[outer.op];
  if (inner > own || (inner === own && outer.op !== '^')) return outer;
  const end = outer.pos.end;
  const rhs = bindTighter({ ...outer, lhs: lhs.rhs, pos: { start: lhs.rhs.pos.start, end } });
  return { ...lhs, rhs, pos: { start: lhs.pos.start, end } };
}

const EXPERIMENTAL_AGGREGATIONS = new Set<AggregationOp>(['limitk', 'limit_ratio']);

/**
 * Turns the grammar's syntax tree into the typed tree: literals are evaluated, `offset` and `@`
 * folded into the selector or subquery they modify, label matchers built (regexes compiled), and
 * `-2 ^ 2` read as upstream reads it, `-(2 ^ 2)`. The first problem found stops it.
 */
export class SyntaxTreeReader extends SelectorReader {
  /** The expression of the tree's top node, or the first problem. */
  read(top: SyntaxNode): Expr | ParseProblem {
    try {
      if (/^(\s|#[^\r\n]*)*$/.test(this.input)) {
        throw this.stop({ start: 0, end: 0 }, 'no expression found in input');
      }
      this.checkErrors(top);
      const children = childrenOf(top);
      return this.expr(children[0]);
    } catch (error) {
      if (error instanceof Stop) return error.problem;
      throw error;
    }
  }

  /** The first error node the grammar left, reported as upstream's "unexpected ..." message. */
  private checkErrors(top: SyntaxNode): void {
    const cursor = top.cursor();
    do {
      if (cursor.type.isError) {
        const at = cursor.from;
        const called = /([a-zA-Z_:][a-zA-Z0-9_:]*)\s*$/.exec(this.input.slice(0, at));
        if (called && this.input.slice(at).trimStart().startsWith('(')) {
          const start = at - called[0].length;
          throw this.stop(
            { start, end: start + called[1].length },
            `unknown function with name "${called[1]}"`,
          );
        }
        throw new Stop(this.unexpected(cursor.node));
      }
    } while (cursor.next());
  }

  /**
   * The token at `node` (an error node, or what 2.42 has no place for) as upstream's grammar
   * refuses it: `unexpected <token>`, with where it stands and what was expected there.
   */
  unexpected(node: SyntaxNode): ParseProblem {
    const at = node.from;
    let braces = node.parent;
    while (braces !== null && braces.name !== 'LabelMatchers') braces = braces.parent;
    const token = describeTokenAt(this.input, at, this.dialect, braces !== null);
    return {
      pos: { start: at, end: Math.max(node.to, at + 1) },
      message: `unexpected ${token}${contextOf(node, this.input)}`,
      syntax: true,
    };
  }

  /**
   * A `VectorSelector` node, its label matchers read up to the first that holds an error or does
   * not end by `until`: those a parser stopping at a problem there has read. Or the first of
   * them refused (a bad regex).
   */
  readSelector(node: SyntaxNode, until: number): VectorSelector | ParseProblem {
    try {
      return this.vectorSelector(node, until);
    } catch (error) {
      if (error instanceof Stop) return error.problem;
      throw error;
    }
  }

  protected expr(node: SyntaxNode): Expr {
    const pos = this.pos(node);
    switch (node.name) {
      case 'NumberDurationLiteral':
        return { kind: 'number', value: this.signedNumber(node), pos };
      case 'StringLiteral':
        return { kind: 'string', value: this.string(node), raw: this.text(node), pos };
      case 'VectorSelector':
        return this.vectorSelector(node);
      case 'MatrixSelector':
        return this.matrixSelector(node);
      case 'SubqueryExpr':
        return this.subquery(node);
      case 'OffsetExpr':
        return this.offset(node);
      case 'StepInvariantExpr':
        return this.at(node);
      case 'ParenExpr':
        return { kind: 'paren', expr: this.expr(this.firstChildOrSelf(node)), pos };
      case 'UnaryExpr':
        return this.unary(node);
      case 'BinaryExpr':
        return this.binary(node);
      case 'FunctionCall':
        return this.call(node);
      case 'AggregateExpr':
        return this.aggregate(node);
      case 'AnchoredExpr':
      case 'SmoothedExpr':
        return this.extendedRange(node, node.name === 'AnchoredExpr' ? 'anchored' : 'smoothed');
      default:
        throw this.stop(pos, `unexpected ${describeTokenAt(this.input, node.from, this.dialect)}`);
    }
  }

  private unary(node: SyntaxNode): Expr {
    const [opNode, operand] = childrenOf(node);
    const op = this.text(opNode) === '-' ? '-' : '+';
    const expr = this.expr(operand);
    const pos = this.pos(node);
    if (expr.kind === 'number') {
      return { kind: 'number', value: op === '-' ? -expr.value : expr.value, pos };
    }
    return { kind: 'unary', op, expr, pos };
  }

  private binary(node: SyntaxNode): Expr {
    const children = childrenOf(node);
    const [left, opNode] = children;
    const right = children[children.length - 1];
    const op = BINARY_OPS[opNode.name];
    // The grammar reads a sign as part of a number, so `-2 ^ 2` arrives as `(-2) ^ 2`; upstream
    // reads it as `-(2 ^ 2)` since `^` binds tighter than a sign.
    if (op === '^' && left.name === 'NumberDurationLiteral' && /^[+-]/.test(this.text(left))) {
      const sign = this.text(left)[0] as '+' | '-';
      const digits = /^[+-]\s*/.exec(this.text(left))?.[0].length ?? 1;
      const lhs: Expr = {
        kind: 'number',
        value: this.number(left),
        pos: { start: left.from + digits, end: left.to },
      };
      const power = this.binaryOf(node, '^', lhs, right, children);
      const pos = this.pos(node);
      if (power.kind === 'number') return power;
      return {
        kind: 'unary',
        op: sign,
        expr: { ...power, pos: { ...pos, start: lhs.pos.start } },
        pos,
      };
    }
    return this.binaryOf(node, op, this.expr(left), right, children);
  }

  private binaryOf(
    node: SyntaxNode,
    op: BinaryOp,
    lhs: Expr,
    rightNode: SyntaxNode,
    children: SyntaxNode[],
  ): Expr {
    const returnBool = children.some((child) => child.name === 'BoolModifier');
    const clause = children.find((child) => child.name === 'MatchingModifierClause');
    const fill = children.find((child) => child.name === 'FillModifier');
    if (fill && !this.options.binopFillModifiers) {
      throw this.stop(this.pos(node), 'binop fill modifiers are experimental and not enabled');
    }
    const matching = {
      ...(clause ? this.matching(clause) : defaultMatching(op)),
      ...(fill ? this.fillValues(fill) : {}),
    };
    return bindTighter({
      kind: 'binary',
      op,
      lhs,
      rhs: this.expr(rightNode),
      returnBool,
      matching,
      pos: this.pos(node),
    });
  }

  private fillValues(fill: SyntaxNode): { fillLeft?: number; fillRight?: number } {
    const out: { fillLeft?: number; fillRight?: number } = {};
    for (const clause of childrenOf(fill)) {
      const value = this.signedNumber(clause.getChild('NumberDurationLiteral') as SyntaxNode);
      if (clause.name !== 'FillRightClause') out.fillLeft = value;
      if (clause.name !== 'FillLeftClause') out.fillRight = value;
    }
    return out;
  }

  private matching(clause: SyntaxNode): VectorMatching {
    const lists = clause.getChildren('GroupingLabels');
    const on = clause.getChild('On') !== null;
    const left = clause.getChild('GroupLeft') !== null;
    const right = clause.getChild('GroupRight') !== null;
    return {
      card: left ? 'many-to-one' : right ? 'one-to-many' : 'one-to-one',
      labels: this.labelList(lists[0]),
      on,
      include: lists[1] ? this.labelList(lists[1]) : [],
    };
  }

  private labelList(node: SyntaxNode): string[] {
    return childrenOf(node).map((label) =>
      label.name === 'QuotedLabelName'
        ? this.string(this.firstChildOrSelf(label))
        : this.text(label),
    );
  }

  private call(node: SyntaxNode): Expr {
    const nameNode = node.getChild('FunctionIdentifier') as SyntaxNode;
    const written = this.text(nameNode);
    const name = FUNCTIONS.has(written) ? written : written.toLowerCase();
    const func = FUNCTIONS.get(name);
    const pos = this.pos(node);
    if (func === undefined)
      throw this.stop(this.pos(nameNode), `unknown function with name "${name}"`);
    if (func.experimental && !this.options.experimentalFunctions) {
      throw this.stop(this.pos(nameNode), `function "${name}" is not enabled`);
    }
    const body = node.getChild('FunctionCallBody') as SyntaxNode;
    const args = childrenOf(body).map((arg) => this.expr(arg));
    return { kind: 'call', func, args, pos };
  }

  private aggregate(node: SyntaxNode): Expr {
    const opNode = this.firstChildOrSelf(node.getChild('AggregateOp') as SyntaxNode);
    const op = this.text(opNode).toLowerCase() as AggregationOp;
    const pos = this.pos(node);
    if (EXPERIMENTAL_AGGREGATIONS.has(op) && !this.options.experimentalFunctions) {
      throw this.stop(
        pos,
        `${op}() is experimental and must be enabled with --enable-feature=promql-experimental-functions`,
      );
    }
    const modifier = node.getChild('AggregateModifier');
    const body = node.getChild('FunctionCallBody') as SyntaxNode;
    const args = childrenOf(body).map((arg) => this.expr(arg));
    const takesParam =
      op === 'topk' ||
      op === 'bottomk' ||
      op === 'quantile' ||
      op === 'count_values' ||
      op === 'limitk' ||
      op === 'limit_ratio';
    if (args.length === 0) throw this.stop(pos, 'no arguments for aggregate expression provided');
    const wanted = takesParam ? 2 : 1;
    if (args.length !== wanted) {
      throw this.stop(
        pos,
        `wrong number of arguments for aggregate expression provided, expected ${wanted}, got ${args.length}`,
      );
    }
    const grouping = modifier
      ? this.labelList(modifier.getChild('GroupingLabels') as SyntaxNode)
      : [];
    return {
      kind: 'aggregate',
      op,
      param: takesParam ? args[0] : undefined,
      expr: args[args.length - 1],
      grouping,
      without: modifier?.getChild('Without') != null,
      pos,
    };
  }
}

/** Matching without `on`/`ignoring`: set operators match many to many, the rest one to one. */
function defaultMatching(op: BinaryOp): VectorMatching {
  const set = op === 'and' || op === 'or' || op === 'unless';
  return { card: set ? 'many-to-many' : 'one-to-one', labels: [], on: false, include: [] };
}

/**
 * Where an error sits and what upstream's grammar expected there, in its words (the contexts of
 * its error rules: label matching, grouping opts, aggregation, offset, `@`, ranges and
 * subqueries).
 */
function contextOf(error: SyntaxNode, input: string): string {
  // A missing duration (`x[]`), match operator (`{a "b"}`) or label name (`{="b"}`) leaves its
  // error at the start of the node the grammar supposed there: it stands for that node.
  let at = error;
  while (at.parent !== null && MISSING_PARTS.has(at.parent.name) && at.parent.from === error.from) {
    at = at.parent;
  }
  let before = at.prevSibling;
  while (before?.name === 'LineComment') before = before.prevSibling;
  const between = before === null ? '' : input.slice(before.to, at.from).replace(/#[^\r\n]*/g, '');
  // A comma between the previous item of a list and the error: a new item was expected.
  const afterComma = /,\s*$/.test(between);
  switch (at.parent?.name) {
    case 'LabelMatchers':
      return before === null || afterComma
        ? ' in label matching, expected identifier or "}"'
        : ' in label matching, expected "," or "}"';
    case 'UnquotedLabelMatcher':
    case 'QuotedLabelMatcher':
      return before?.name === 'MatchOp'
        ? ' in label matching, expected string'
        : ' in label matching, expected label matching operator';
    case 'GroupingLabels':
      return before === null || afterComma
        ? ' in grouping opts, expected label'
        : ' in grouping opts, expected "," or ")"';
    case 'AggregateModifier':
      return ' in grouping opts, expected "("';
    case 'AggregateExpr':
      return ' in aggregation';
    case 'OffsetExpr':
    case 'OffsetDurationExpr':
      return ' in offset, expected number, duration, step(), or range()';
    case 'StepInvariantExpr':
      return ' in @, expected timestamp';
    case 'MatrixSelector':
    case 'SubqueryExpr':
      return rangeContext(at, between);
    case 'DurationExpr':
      return ' in subquery or range selector';
    case 'FunctionCallBody':
      return ' in argument list';
    default:
      return '';
  }
}

/** The nodes a duration in brackets is made of, down to its literal; a matcher and its operator. */
const MISSING_PARTS = new Set([
  'DurationExpr',
  'NumberDurationLiteralInDurationContext',
  'MatchOp',
  'UnquotedLabelMatcher',
  'QuotedLabelMatcher',
]);

/** An error in brackets after an expression: what upstream expected after what came before. */
function rangeContext(at: SyntaxNode, between: string): string {
  let durations = 0;
  for (let n = at.prevSibling; n !== null; n = n.prevSibling)
    if (n.name === 'DurationExpr') durations++;
  if (durations === 0) {
    return ' in subquery or range selector, expected number, duration, step(), or range()';
  }
  if (durations >= 2) return ' in subquery selector, expected "]"';
  return between.includes(':')
    ? ' in subquery selector, expected number, duration, step(), range(), or "]"'
    : ' in subquery or range, expected ":" or "]"';
}
