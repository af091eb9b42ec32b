import { parser } from '@prometheus-io/lezer-promql';
import type { Expr } from '../ast';
import { checkTypes } from './check-types';
import { grammarInput, STAND_INS } from './grammar-input';
import { lexicalProblem } from './lexical-check';
import { readLongChains } from './long-chain-parse';
import { PromqlParseError, type ParseProblem } from './parse-error';
import { SyntaxTreeReader, type ParserOptions } from './syntax-tree';

/**
 * Parses and type-checks a PromQL expression. Throws {@link PromqlParseError} with upstream's
 * message and position for a query upstream would refuse.
 */
export function parseExpr(input: string, options: ParserOptions = {}): Expr {
  let text = grammarInput(input);
  let read = readTree(input, text, options);
  // A function the grammar knows only inside durations (`min_of(1, 2)`): read it under a
  // stand-in name of the same length; names are taken from the original query.
  for (let tries = 0; tries < 8 && !('kind' in read); tries++) {
    const name = /^unknown function with name "(.*)"$/.exec(read.message)?.[1];
    const standIn = name === undefined ? undefined : STAND_INS.get(name);
    if (standIn === undefined) break;
    text = text.slice(0, read.pos.start) + standIn + text.slice(read.pos.end);
    read = readTree(input, text, options);
  }
  // Upstream's lexer reports its own errors as the parser reaches them: first, unless the
  // grammar stumbled earlier in the query.
  const lexical = lexicalProblem(input);
  const lexicalAt = lexical?.foundAt ?? lexical?.pos.start ?? 0;
  if (lexical && ('kind' in read || !read.syntax || lexicalAt <= read.pos.start)) {
    throw new PromqlParseError(input, [lexical]);
  }
  if (!('kind' in read)) throw new PromqlParseError(input, [read]);
  const problems = checkTypes(read, input);
  if (problems.length > 0) throw new PromqlParseError(input, problems.slice(0, 1));
  return read;
}

/** The grammar's reading of `text`, its long operator chains read a part at a time. */
function readTree(input: string, text: string, options: ParserOptions): Expr | ParseProblem {
  return (
    readLongChains(input, text, options) ??
    new SyntaxTreeReader(input, options).read(parser.parse(text).topNode)
  );
}
