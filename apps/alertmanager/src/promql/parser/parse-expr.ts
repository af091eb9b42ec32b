import { parser } from '@prometheus-io/lezer-promql';
import type { Expr } from '../ast';
import { checkTypes } from './check-types';
import { PromqlParseError } from './parse-error';
import { SyntaxTreeReader, type ParserOptions } from './syntax-tree';

/**
 * Parses and type-checks a PromQL expression. Throws {@link PromqlParseError} with upstream's
 * message and position for a query upstream would refuse.
 */
export function parseExpr(input: string, options: ParserOptions = {}): Expr {
  const tree = parser.parse(input);
  const read = new SyntaxTreeReader(input, options).read(tree.topNode);
  if (!('kind' in read)) throw new PromqlParseError(input, [read]);
  const problems = checkTypes(read, input);
  if (problems.length > 0) throw new PromqlParseError(input, problems.slice(0, 1));
  return read;
}
