import type { SyntaxNode } from '@lezer/common';
import { parser } from '@prometheus-io/lezer-promql';
import type { Expr } from '../ast';
import { scanExpressionSlots } from './expression-slots';
import { findLongChains, type LongChain } from './long-chains';
import type { ParseProblem } from './parse-error';
import { isStandInNode, StandInInput, type StandIn } from './stand-in-input';
import { SyntaxTreeReader, type ParserOptions } from './syntax-tree';

/**
 * Operators of a chain the grammar reads at once: well below the few hundred left-associative
 * reductions after which its parser forces one, and the 2,500 levels past which it flattens the
 * tree.
 */
export const CHAIN_WINDOW = 64;

/**
 * Reads `text` (the query as the grammar reads it; `input` as written) into an expression when
 * it holds an operator chain of {@link CHAIN_WINDOW} operators or more, which upstream parses at
 * any length; `undefined` when it holds none, for the grammar to read it whole.
 *
 * Each such chain, inner ones first, is read a window of operators at a time: the part read so
 * far stands in the next window as one short metric name, and the window's tree takes its
 * expression in its place. A chain read whole stands for itself in what holds it. Every
 * position stays the query's own, so problems are reported where upstream reports them.
 */
export function readLongChains(
  input: string,
  text: string,
  options: ParserOptions,
  window = CHAIN_WINDOW,
): Expr | ParseProblem | undefined {
  // A chain of `window` operators takes at least two characters for each and one operand more.
  if (text.length < 2 * window + 1) return undefined;
  const slots = scanExpressionSlots(text);
  const chains = slots && findLongChains(slots, window);
  if (chains === undefined || chains.length === 0) return undefined;
  let standIns: StandIn[] = [];
  for (const chain of chains) {
    const read = readChain(input, text, options, chain, standIns, window);
    if (!('kind' in read)) return read;
    standIns = standIns.filter((s) => s.to <= chain.from || s.from >= chain.to);
    standIns.push({ from: chain.from, to: chain.to, expr: read });
  }
  return readRange(input, text, options, standIns, 0, text.length);
}

function readChain(
  input: string,
  text: string,
  options: ParserOptions,
  chain: LongChain,
  inner: readonly StandIn[],
  window: number,
): Expr | ParseProblem {
  const { operators } = chain;
  let left: Expr | undefined;
  for (let k = 0; k < operators.length; k += window) {
    const to = k + window < operators.length ? operators[k + window] : chain.to;
    const standIns = inner.filter((s) => s.from >= operators[k] && s.to <= to);
    let from = chain.from;
    if (left !== undefined) {
      // Two characters before the operator: the name and the blank that keeps it a word.
      from = Math.max(chain.from, operators[k] - 2);
      standIns.push({ from, to: operators[k], expr: left });
    } else {
      standIns.push(...inner.filter((s) => s.from >= chain.from && s.to <= to));
    }
    const read = readRange(input, text, options, standIns, from, to);
    if (!('kind' in read)) return read;
    left = startingAt(read, from, chain.from);
  }
  return left as Expr;
}

function readRange(
  input: string,
  text: string,
  options: ParserOptions,
  standIns: readonly StandIn[],
  from: number,
  to: number,
): Expr | ParseProblem {
  const ranges =
    from > 0
      ? [
          { from: 0, to: 1 },
          { from, to },
        ]
      : [{ from, to }];
  const tree = parser.parse(new StandInInput(text, standIns, from > 0), undefined, ranges);
  return new StandInReader(input, options, standIns).read(tree.topNode);
}

/**
 * A window's expression with the operations on its left edge, which start at the short name of
 * the part before the window, starting where that part does.
 */
function startingAt(expr: Expr, nameStart: number, start: number): Expr {
  if (nameStart === start || expr.kind !== 'binary' || expr.pos.start !== nameStart) return expr;
  const spine: Extract<Expr, { kind: 'binary' }>[] = [];
  let at: Expr = expr;
  while (at.kind === 'binary' && at.pos.start === nameStart) {
    spine.push(at);
    at = at.lhs;
  }
  for (let i = spine.length - 1; i >= 0; i--) {
    at = { ...spine[i], lhs: at, pos: { start, end: spine[i].pos.end } };
  }
  return at;
}

/** The reader that takes a stand-in's expression where the grammar found its name. */
class StandInReader extends SyntaxTreeReader {
  private readonly standIns: ReadonlyMap<number, StandIn>;

  constructor(input: string, options: ParserOptions, standIns: readonly StandIn[]) {
    super(input, options);
    this.standIns = new Map(standIns.map((s) => [s.from, s]));
  }

  protected override expr(node: SyntaxNode): Expr {
    const standIn = this.standIns.get(node.from);
    if (standIn !== undefined && isStandInNode(standIn, node.name, node.from, node.to)) {
      return standIn.expr;
    }
    return super.expr(node);
  }
}
