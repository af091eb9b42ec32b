import type { PositionRange } from '../ast';

/** One problem found while parsing a query, with where it is. */
export interface ParseProblem {
  readonly pos: PositionRange;
  readonly message: string;
  /** True for a problem of the grammar's structure (found while reading tokens, not after). */
  readonly syntax?: boolean;
  /** Where the lexer met it, when it reports it further on (an unbalanced `)`: just after). */
  readonly foundAt?: number;
}

/**
 * A query that does not parse or type-check. Its message is upstream's first problem
 * (`1:5: parse error: unexpected end of input`), with line and column counted in the query.
 */
export class PromqlParseError extends Error {
  readonly problems: readonly ParseProblem[];

  constructor(query: string, problems: readonly ParseProblem[]) {
    super(problems.map((p) => formatProblem(query, p)).join('\n'));
    this.name = 'PromqlParseError';
    this.problems = problems;
  }

  /** The first problem's position. */
  get pos(): PositionRange {
    return this.problems[0].pos;
  }
}

function formatProblem(query: string, problem: ParseProblem): string {
  const offset = Buffer.byteLength(query.slice(0, problem.pos.start));
  const before = Buffer.from(query).subarray(0, offset).toString();
  const lastBreak = before.lastIndexOf('\n');
  const line = before.split('\n').length;
  const column = Buffer.byteLength(before.slice(lastBreak + 1)) + 1;
  return `${line}:${column}: parse error: ${problem.message}`;
}
