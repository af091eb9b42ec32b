import { PRECEDENCE } from './binary-precedence';
import { loosest, type ExpressionSlot, type ScannedOperator } from './expression-slots';

/**
 * A run of operators of one binding strength, bound to the left (`m0 + m1 - m2 + ...`), long
 * enough that the grammar's parser would cut it short: its left-associative reductions past a
 * few hundred, or a tree deeper than 2,500 nodes, make it force a reduction or flatten the tree.
 */
export interface LongChain {
  /** The chain's expression: the start of its first operand, the end of its last. */
  readonly from: number;
  readonly to: number;
  /** Where each of its operators starts. */
  readonly operators: readonly number[];
}

/** A part of a slot: its operators and the parenthesized slots within it. */
interface Span {
  readonly from: number;
  readonly to: number;
  readonly operators: readonly ScannedOperator[];
  readonly children: readonly ExpressionSlot[];
}

/**
 * The chains of at least `minOperators` operators in a query's slots, inner ones (in
 * parentheses, or operands of a looser operator) before the chains that hold them.
 */
export function findLongChains(root: ExpressionSlot, minOperators: number): LongChain[] {
  const found: LongChain[] = [];
  visit(root, minOperators, found);
  return found;
}

function visit(span: Span, minOperators: number, found: LongChain[]): void {
  const strength = loosest(span.operators);
  // `^` binds to the right: a chain of it is left to the grammar.
  if (span.operators.length === 0 || strength === PRECEDENCE['^']) {
    for (const child of span.children) visit(child, minOperators, found);
    return;
  }
  const splits = span.operators.filter((o) => PRECEDENCE[o.op] === strength);
  let o = 0;
  let c = 0;
  for (let s = 0; s <= splits.length; s++) {
    const from = s === 0 ? span.from : splits[s - 1].after;
    const to = s < splits.length ? splits[s].before : span.to;
    const operators: ScannedOperator[] = [];
    for (; o < span.operators.length && span.operators[o].start < to; o++) {
      if (span.operators[o].start > from) operators.push(span.operators[o]);
    }
    const children: ExpressionSlot[] = [];
    for (; c < span.children.length && span.children[c].from < to; c++) {
      if (span.children[c].from >= from) children.push(span.children[c]);
    }
    visit({ from, to, operators, children }, minOperators, found);
  }
  if (splits.length >= minOperators) {
    found.push({ from: span.from, to: span.to, operators: splits.map((s) => s.start) });
  }
}
