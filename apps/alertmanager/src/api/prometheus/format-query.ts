import { parseExpr, prettifyExpr, PromqlParseError } from '../../promql';
import { invalidParam } from './prometheus-reply';

/**
 * `/api/v1/format_query`: the `query` parameter pretty-printed as Prometheus prints it, or, for a
 * query that does not parse, upstream's `invalid parameter "query": <parse error>`.
 */
export function formatQuery(params: URLSearchParams): string {
  let expr;
  try {
    expr = parseExpr(params.get('query') ?? '');
  } catch (error) {
    if (error instanceof PromqlParseError) throw invalidParam('query', error.message);
    throw error;
  }
  return prettifyExpr(expr);
}
