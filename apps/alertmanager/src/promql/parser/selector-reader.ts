import type { SyntaxNode } from '@lezer/common';
import type {
  AtModifier,
  Expr,
  LabelMatcher,
  MatchType,
  PositionRange,
  VectorSelector,
} from '../ast';
import { newLabelMatcher } from './label-matcher';
import { childrenOf, NodeReader } from './node-reader';

const MATCH_OPS: Record<string, MatchType> = {
  EqlSingle: '=',
  Neq: '!=',
  EqlRegex: '=~',
  NeqRegex: '!~',
};

/**
 * Reads selectors and what modifies them: label matchers (regexes compiled), ranges, subqueries,
 * and the postfix `offset`, `@`, `anchored` and `smoothed`, folded into the selector or subquery
 * they modify. The expression they apply to is read by the subclass.
 */
export abstract class SelectorReader extends NodeReader {
  /** Any expression node, read by the expression reader. */
  protected abstract expr(node: SyntaxNode): Expr;

  /** A selector; with `until`, only its matchers that end by then and hold no error. */
  protected vectorSelector(node: SyntaxNode, until = Infinity): VectorSelector {
    const matchers: LabelMatcher[] = [];
    const block = node.getChild('LabelMatchers');
    for (const child of block ? childrenOf(block) : []) {
      if (child.to > until || child.type.isError || child.getChild('⚠') !== null) break;
      if (child.name === 'QuotedLabelName') {
        // `{"metric"}`: a quoted metric name standing alone.
        const name = this.string(this.firstChildOrSelf(child));
        matchers.push(this.matcher('__name__', '=', name, this.pos(child)));
        continue;
      }
      const nameNode = child.firstChild as SyntaxNode;
      const name =
        nameNode.name === 'QuotedLabelName'
          ? this.string(this.firstChildOrSelf(nameNode))
          : this.text(nameNode);
      const op = MATCH_OPS[this.firstChildOrSelf(child.getChild('MatchOp') as SyntaxNode).name];
      const value = this.string(child.getChild('StringLiteral') as SyntaxNode);
      matchers.push(this.matcher(name, op, value, this.pos(child)));
    }
    const identifier = node.getChild('Identifier');
    const name = identifier ? this.text(identifier) : '';
    if (identifier) matchers.push(this.matcher('__name__', '=', name, this.pos(identifier)));
    return {
      kind: 'vectorSelector',
      name,
      matchers,
      offsetMs: 0,
      at: { kind: 'none' },
      pos: this.pos(node),
    };
  }

  private matcher(name: string, op: MatchType, value: string, pos: PositionRange): LabelMatcher {
    const matcher = newLabelMatcher(name, op, value, this.dialect);
    if (typeof matcher === 'string') throw this.stop(pos, matcher);
    return matcher;
  }

  /**
   * Applies a postfix modifier (`[range]`, `[range:step]`, `offset`, `@`) the way upstream binds
   * it: to the primary expression right before it. The grammar binds it to the whole operation
   * on its left (`a + b offset 5m` as `(a + b) offset 5m`); it is moved down to `b`.
   */
  private postfix(target: Expr, end: number, apply: (primary: Expr, end: number) => Expr): Expr {
    if (target.kind === 'binary') {
      const rhs = this.postfix(target.rhs, end, apply);
      return { ...target, rhs, pos: { start: target.pos.start, end } };
    }
    if (target.kind === 'unary') {
      const expr = this.postfix(target.expr, end, apply);
      return { ...target, expr, pos: { start: target.pos.start, end } };
    }
    return apply(target, end);
  }

  protected matrixSelector(node: SyntaxNode): Expr {
    const [inner, rangeNode] = childrenOf(node);
    // Upstream reports what may not take a range at the range itself, `[` to `]`.
    const brackets = { start: this.input.lastIndexOf('[', rangeNode.from), end: node.to };
    return this.postfix(this.expr(inner), node.to, (selector, end) => {
      const pos = { start: selector.pos.start, end };
      if (selector.kind !== 'vectorSelector') {
        throw this.stop(brackets, 'ranges only allowed for vector selectors');
      }
      if (selector.offsetMs !== 0) {
        throw this.stop(brackets, 'no offset modifiers allowed before range');
      }
      if (selector.at.kind !== 'none') {
        throw this.stop(brackets, 'no @ modifiers allowed before range');
      }
      const range = this.duration(rangeNode, false);
      return { kind: 'matrixSelector', selector, rangeMs: range.ms, rangeExpr: range.expr, pos };
    });
  }

  protected subquery(node: SyntaxNode): Expr {
    const [inner, ...durations] = childrenOf(node);
    return this.postfix(this.expr(inner), node.to, (expr, end) => {
      const range = this.duration(durations[0], false);
      const step = durations[1] ? this.duration(durations[1], false) : { ms: 0 };
      return {
        kind: 'subquery',
        expr,
        rangeMs: range.ms,
        rangeExpr: range.expr,
        stepMs: step.ms,
        stepExpr: step.expr,
        offsetMs: 0,
        at: { kind: 'none' },
        pos: { start: expr.pos.start, end },
      };
    });
  }

  protected offset(node: SyntaxNode): Expr {
    const [inner, , amount] = childrenOf(node);
    return this.postfix(this.expr(inner), node.to, (target, end) => {
      const { ms: offsetMs, expr: offsetExpr } = this.duration(amount, true);
      const pos = { start: target.pos.start, end };
      const modifiable = this.modifiable(target, target.pos, 'offset modifier');
      if (modifiable.kind === 'matrixSelector') {
        if (modifiable.selector.offsetMs !== 0 || modifiable.selector.offsetExpr !== undefined) {
          throw this.stop(target.pos, 'offset may not be set multiple times');
        }
        return { ...modifiable, selector: { ...modifiable.selector, offsetMs, offsetExpr }, pos };
      }
      if (modifiable.offsetMs !== 0 || modifiable.offsetExpr !== undefined) {
        throw this.stop(target.pos, 'offset may not be set multiple times');
      }
      return { ...modifiable, offsetMs, offsetExpr, pos };
    });
  }

  protected at(node: SyntaxNode): Expr {
    const [inner, , modifier] = childrenOf(node);
    return this.postfix(this.expr(inner), node.to, (target, end) => {
      const pos = { start: target.pos.start, end };
      let at: AtModifier;
      if (modifier.name === 'AtModifierPreprocessors') {
        at = { kind: modifier.getChild('AtStart') ? 'start' : 'end' };
      } else {
        const seconds = this.signedNumber(modifier);
        if (!Number.isFinite(seconds) || Math.abs(seconds) >= 9.223372036854776e18) {
          throw this.stop(
            target.pos,
            `timestamp out of bounds for @ modifier: ${goFloatF(seconds)}`,
          );
        }
        at = { kind: 'timestamp', ms: Math.round(seconds * 1000) };
      }
      const modifiable = this.modifiable(target, target.pos, '@ modifier');
      const current = modifiable.kind === 'matrixSelector' ? modifiable.selector : modifiable;
      if (current.at.kind !== 'none') {
        throw this.stop(target.pos, '@ <timestamp> may not be set multiple times');
      }
      if (modifiable.kind === 'matrixSelector') {
        return { ...modifiable, selector: { ...modifiable.selector, at }, pos };
      }
      return { ...modifiable, at, pos };
    });
  }

  /** `anchored` or `smoothed` on the selector before it, with upstream's refusals. */
  protected extendedRange(node: SyntaxNode, word: 'anchored' | 'smoothed'): Expr {
    const [inner] = childrenOf(node);
    const other = word === 'anchored' ? 'smoothed' : 'anchored';
    return this.postfix(this.expr(inner), node.to, (target, end) => {
      const pos = { start: target.pos.start, end };
      if (!this.options.extendedRangeSelectors) {
        throw this.stop(pos, `${word} modifier is experimental and not enabled`);
      }
      const both = 'anchored and smoothed modifiers cannot be used together';
      if (target.kind === 'vectorSelector') {
        if (target[other]) throw this.stop(pos, both);
        return { ...target, [word]: true, pos };
      }
      if (target.kind === 'matrixSelector') {
        if (target.selector[other]) throw this.stop(pos, both);
        return { ...target, selector: { ...target.selector, [word]: true }, pos };
      }
      if (target.kind === 'subquery')
        throw this.stop(pos, `${word} modifier is not supported for subqueries`);
      throw this.stop(pos, `${word} modifier not implemented`);
    });
  }

  /** The selector or subquery an `offset` or `@` applies to (through parentheses, as upstream). */
  private modifiable(target: Expr, pos: PositionRange, what: string) {
    if (
      target.kind === 'vectorSelector' ||
      target.kind === 'matrixSelector' ||
      target.kind === 'subquery'
    ) {
      return target;
    }
    throw this.stop(
      pos,
      `${what} must be preceded by an instant vector selector or range vector selector or a subquery`,
    );
  }
}

/** Go's `%f` of a float, as upstream prints a refused `@` timestamp. */
function goFloatF(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? '+Inf' : '-Inf';
  return value.toFixed(6);
}
