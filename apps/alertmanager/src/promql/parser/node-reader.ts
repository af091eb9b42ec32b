import type { SyntaxNode } from '@lezer/common';
import type { PositionRange } from '../ast';
import {
  DurationError,
  durationMs,
  evaluateDuration,
  usesQueryContext,
  type DurationExpr,
} from '../durations';
import type { PromqlDialect } from './dialect';
import { isDurationToken, NumberSyntaxError, parseNumberToken } from './number-literal';
import type { ParseProblem } from './parse-error';
import { StringSyntaxError, unquoteString } from './string-literal';
import { describeTokenAt } from './token-description';

/** What the parser accepts beyond the stable language, as upstream's feature flags. */
export interface ParserOptions {
  /** Experimental functions and aggregations (`limitk`, `sort_by_label`, `mad_over_time`, ...). */
  readonly experimentalFunctions?: boolean;
  /** Arithmetic in ranges, offsets and steps (`[5m+1m]`, `offset -(1m)`). */
  readonly durationExpressions?: boolean;
  /** `fill(v)`, `fill_left(v)`, `fill_right(v)` on binary operations between vectors. */
  readonly binopFillModifiers?: boolean;
  /** The `anchored` and `smoothed` modifiers of selectors. */
  readonly extendedRangeSelectors?: boolean;
}

export /** Raised inside the conversion to stop at the first problem, as upstream reports it. */
class Stop extends Error {
  constructor(readonly problem: ParseProblem) {
    super(problem.message);
  }
}

/**
 * The parts of the conversion that read single nodes: number, string and duration literals,
 * duration expressions (`[5m+1m]`, `offset -(1m)`), positions and the problem that stops the
 * conversion. The expression reader builds on it.
 */
export class NodeReader {
  constructor(
    protected readonly input: string,
    protected readonly options: ParserOptions,
    /** Whose messages and matchers: the engine's, or 2.42's for `match_target`. */
    protected readonly dialect: PromqlDialect = 'v3',
  ) {}

  /**
   * A range, subquery step or offset. Constant ones become milliseconds now (their problems are
   * parse errors); ones that use `step()` or `range()` keep their expression for the engine.
   */
  protected duration(
    node: SyntaxNode,
    allowNegative: boolean,
  ): { ms: number; expr?: DurationExpr } {
    const tree = this.durationTree(node);
    if (usesQueryContext(tree)) return { ms: 0, expr: tree };
    // A literal is exact in milliseconds; arithmetic goes through seconds as upstream's does.
    if (tree.kind === 'literal' && tree.ms !== undefined) {
      if (tree.ms <= 0 && !allowNegative)
        throw this.stop(this.pos(node), 'duration must be greater than 0');
      return { ms: tree.ms };
    }
    try {
      return {
        ms: durationMs(
          evaluateDuration(tree, { stepMs: 0, rangeMs: 0 }),
          allowNegative,
          this.pos(node),
        ),
      };
    } catch (error) {
      if (error instanceof DurationError) throw this.stop(error.pos, error.reason);
      throw error;
    }
  }

  /** The duration syntax as a tree; arithmetic needs the experimental option. */
  protected durationTree(node: SyntaxNode): DurationExpr {
    const children = childrenOf(node);
    const first = children[0];
    const pos = this.pos(node);
    if (node.name === 'NumberDurationLiteralInDurationContext') {
      const ms = this.durationLiteral(node);
      return { kind: 'literal', seconds: ms / 1000, ms, pos };
    }
    if (first?.name === 'UnaryOp') {
      const expr = this.durationTree(children[1]);
      // A signed literal is a number, not arithmetic.
      if (expr.kind === 'literal') {
        return {
          kind: 'literal',
          seconds: this.text(first) === '-' ? -expr.seconds : expr.seconds,
          pos,
        };
      }
      return { kind: 'unary', op: this.text(first) === '-' ? '-' : '+', expr, pos };
    }
    if (children.length === 1 && first.name !== 'DurationStep' && first.name !== 'DurationRange') {
      const inner = this.durationTree(first);
      if (node.name !== 'DurationExpr' && node.name !== 'OffsetDurationExpr')
        this.experimental(node);
      return inner;
    }
    this.experimental(node);
    if (first?.name === 'DurationStep' || first?.name === 'DurationRange') {
      return { kind: first.name === 'DurationStep' ? 'step' : 'range', pos };
    }
    if (first?.name === 'DurationMinOf' || first?.name === 'DurationMaxOf') {
      const kind = first.name === 'DurationMinOf' ? 'min_of' : 'max_of';
      return {
        kind,
        lhs: this.durationTree(children[1]),
        rhs: this.durationTree(children[2]),
        pos,
      };
    }
    if (children.length === 1) return this.durationTree(first);
    const [left, opNode, right] = children;
    const ops: Record<string, '+' | '-' | '*' | '/' | '%' | '^'> = {
      Add: '+',
      Sub: '-',
      Mul: '*',
      Div: '/',
      Mod: '%',
      Pow: '^',
    };
    const op = ops[opNode.name];
    if (op === undefined)
      throw this.stop(pos, `unexpected ${describeTokenAt(this.input, opNode.from, this.dialect)}`);
    return { kind: 'binary', op, lhs: this.durationTree(left), rhs: this.durationTree(right), pos };
  }

  protected experimental(node: SyntaxNode): void {
    if (!this.options.durationExpressions) {
      throw this.stop(this.pos(node), 'experimental duration expression is not enabled');
    }
  }

  protected durationLiteral(node: SyntaxNode): number {
    const text = this.text(node);
    const seconds = this.number(node);
    if (!isDurationToken(text) && !Number.isFinite(seconds)) {
      throw this.stop(this.pos(node), 'expected number literal or duration expression');
    }
    if (Math.abs(seconds) > 9223372036.854776)
      throw this.stop(this.pos(node), 'duration out of range');
    return Math.round(seconds * 1000);
  }

  protected signedNumber(node: SyntaxNode): number {
    const text = this.text(node);
    const value = this.number(node.lastChild ?? node);
    return text.startsWith('-') ? -value : value;
  }

  protected number(node: SyntaxNode): number {
    const text = this.text(node);
    try {
      return parseNumberToken(text.replace(/^[+-]\s*/, ''));
    } catch (error) {
      if (error instanceof NumberSyntaxError) {
        throw this.stop(this.pos(node), `error parsing number: ${error.message}`);
      }
      throw error;
    }
  }

  protected string(node: SyntaxNode): string {
    const text = this.text(node);
    try {
      return unquoteString(text);
    } catch (error) {
      if (error instanceof StringSyntaxError) {
        throw this.stop(this.pos(node), `error unquoting string ${goQuoted(text)}: invalid syntax`);
      }
      throw error;
    }
  }

  /** The node's first child (a wrapper's content), or the node itself when it has none. */
  protected firstChildOrSelf(node: SyntaxNode): SyntaxNode {
    return childrenOf(node)[0] ?? node;
  }

  protected text(node: SyntaxNode): string {
    return this.input.slice(node.from, node.to);
  }

  protected pos(node: SyntaxNode): PositionRange {
    return { start: node.from, end: node.to };
  }

  protected stop(pos: PositionRange, message: string): Stop {
    return new Stop({ pos, message });
  }
}

export /** Node children without the punctuation the grammar keeps anonymous. */
function childrenOf(node: SyntaxNode): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  for (let child = node.firstChild; child !== null; child = child.nextSibling) {
    // A comment is skipped like whitespace, but the grammar keeps it as a node where it stands.
    if (child.name === 'LineComment') continue;
    if (child.name !== '(' && child.name !== ')' && child.name !== ',') out.push(child);
  }
  return out;
}

function goQuoted(text: string): string {
  return JSON.stringify(text);
}
