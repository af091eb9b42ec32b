import type { SyntaxNode } from '@lezer/common';
import { parser } from '@prometheus-io/lezer-promql';
import type { LabelMatcher } from '../ast';
import { isMetricNameWord, type PromqlDialect } from './dialect';
import { grammarInput } from './grammar-input';
import { lexicalProblem } from './lexical-check';
import { PromqlParseError, type ParseProblem } from './parse-error';
import { SyntaxTreeReader } from './syntax-tree';
import { describeTokenAt, skipBlanks } from './token-description';

const WORD = /^[a-zA-Z_:][a-zA-Z0-9_:]*/;
/** The label names 2.42 does not know: strings where it expects an identifier. */
const QUOTED_NAMES = new Set(['QuotedLabelName', 'QuotedLabelMatcher']);

/**
 * Upstream's `ParseMetricSelector`: a metric name, label matchers in braces, or both, and nothing
 * more (`{}` too; the matchers need not select anything). Refused with upstream's first problem
 * (a {@link PromqlParseError}): its lexer's, the grammar's inside the braces, `unexpected
 * <token>` at the first token past the selector, or a bad regex in a matcher read before those.
 *
 * In the `v2.42` dialect it reads as Prometheus 2.42 (`match_target`): its words (`sum` and
 * `offset` are metric names, `limitk` an identifier), numbers and messages, no quoted label
 * names, regexes anchored as `^(?:re)$`.
 */
export function parseMetricSelector(input: string, dialect: PromqlDialect = 'v3'): LabelMatcher[] {
  const first = skipBlanks(input, 0);
  const word = WORD.exec(input.slice(first))?.[0];
  const calls = word !== undefined && input[skipBlanks(input, first + word.length)] === '(';
  const nameEnd =
    word !== undefined && isMetricNameWord(word, dialect, calls) ? first + word.length : undefined;
  // The grammar takes a word that names something elsewhere (`offset`, `sum(`) for that thing:
  // a same-length stand-in makes it the metric name it is here. Names are read from the input.
  let text = grammarInput(input);
  if (nameEnd !== undefined) {
    text = text.slice(0, first) + 'x'.repeat(nameEnd - first) + text.slice(nameEnd);
  }
  const reader = new SyntaxTreeReader(input, {}, dialect);
  const selector = leadingSelector(parser.parse(text).topNode, first, nameEnd !== undefined);
  const grammar =
    selector === undefined
      ? nameEnd === undefined
        ? unexpectedAt(input, first, dialect)
        : tokenAfter(input, nameEnd, dialect)
      : selectorProblem(reader, input, selector, nameEnd, dialect);
  // Upstream's lexer reports its own errors as the parser reaches them: first, unless the
  // grammar stopped earlier.
  const lexical = lexicalProblem(input, { dialect, readsDurations: false });
  const problem =
    lexical && (grammar === undefined || metAt(lexical) <= grammar.pos.start) ? lexical : grammar;
  const until = problem ? metAt(problem) : input.length;
  // A matcher is built (its regex compiled) as soon as it is read: before any later problem.
  const read = selector && reader.readSelector(selector, until);
  if (read !== undefined && !('kind' in read)) throw new PromqlParseError(input, [read]);
  if (problem !== undefined || read === undefined) {
    throw new PromqlParseError(input, [problem ?? unexpectedAt(input, first, dialect)]);
  }
  return [...read.matchers];
}

/**
 * The `VectorSelector` the query starts with at `first`: with the name there, or braces there
 * when there is none.
 */
function leadingSelector(top: SyntaxNode, first: number, named: boolean): SyntaxNode | undefined {
  let node = firstPart(top);
  while (node !== undefined && node.from === first && node.name !== 'VectorSelector') {
    node = firstPart(node);
  }
  if (node?.name !== 'VectorSelector' || node.from !== first) return undefined;
  return firstPart(node)?.name === (named ? 'Identifier' : 'LabelMatchers') ? node : undefined;
}

/** The first problem of a selector as the grammar read it, past its name if it has one. */
function selectorProblem(
  reader: SyntaxTreeReader,
  input: string,
  selector: SyntaxNode,
  nameEnd: number | undefined,
  dialect: PromqlDialect,
): ParseProblem | undefined {
  const block = partsOf(selector)[nameEnd === undefined ? 0 : 1];
  // The braces right after the name: not ones the grammar supposed where there are none.
  const braces = skipBlanks(input, nameEnd ?? 0);
  if (block?.name !== 'LabelMatchers' || block.from !== braces || input[braces] !== '{') {
    return tokenAfter(input, nameEnd ?? 0, dialect);
  }
  const refused = firstRefused(block, dialect);
  return refused ? reader.unexpected(refused) : tokenAfter(input, block.to, dialect);
}

/** The first error node under `node`, or in 2.42, a quoted label name. */
function firstRefused(node: SyntaxNode, dialect: PromqlDialect): SyntaxNode | undefined {
  for (let child = node.firstChild; child !== null; child = child.nextSibling) {
    if (child.type.isError || (dialect === 'v2.42' && QUOTED_NAMES.has(child.name))) return child;
    const inner = firstRefused(child, dialect);
    if (inner !== undefined) return inner;
  }
  return undefined;
}

/** `unexpected <token>` at the first token from `at` on, unless the input ends there. */
function tokenAfter(input: string, at: number, dialect: PromqlDialect): ParseProblem | undefined {
  const next = skipBlanks(input, at);
  return next >= input.length ? undefined : unexpectedAt(input, next, dialect);
}

function unexpectedAt(input: string, at: number, dialect: PromqlDialect): ParseProblem {
  return {
    pos: { start: at, end: Math.min(at + 1, input.length) },
    message: `unexpected ${describeTokenAt(input, at, dialect)}`,
    syntax: true,
  };
}

/** Where the parser met a problem (an unbalanced `)` is reported just after it). */
function metAt(problem: ParseProblem): number {
  return problem.foundAt ?? problem.pos.start;
}

/** A node's children, comments left out. */
function partsOf(node: SyntaxNode): SyntaxNode[] {
  const parts: SyntaxNode[] = [];
  for (let child = node.firstChild; child !== null; child = child.nextSibling) {
    if (child.name !== 'LineComment') parts.push(child);
  }
  return parts;
}

function firstPart(node: SyntaxNode): SyntaxNode | undefined {
  return partsOf(node)[0];
}
