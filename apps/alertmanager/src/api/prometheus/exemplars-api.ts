import { goQuote } from '../../labels/go-quote';
import { parseExpr, type Expr, type LabelMatcher, type ParserOptions } from '../../promql';
import type { SeriesExemplars } from '../../tsdb/exemplars';
import { exemplarsJson } from './exemplars-json';
import { invalidParam, JsonText, PrometheusApiError } from './prometheus-reply';
import { MAX_TIME_MS, MIN_TIME_MS, parseTimeParam } from './query-params';

/** What an exemplar query reads: the exemplar store. */
export interface ExemplarQuerier {
  /**
   * The exemplars within `[startMs, endMs]` of the series any matcher set selects, read in
   * slices that yield to the event loop.
   */
  selectInSlices(
    startMs: number,
    endMs: number,
    matcherSets: readonly (readonly LabelMatcher[])[],
  ): Promise<SeriesExemplars[]>;
}

/** Injection token for {@link ExemplarQuerier}. */
export const ExemplarQuerier = Symbol('ExemplarQuerier');

/**
 * Prometheus 2.42's `/api/v1/query_exemplars`: the exemplars of the series the query's
 * selectors pick (each selector's matchers, wherever it stands in the query) within `start` and
 * `end` (open when absent), with upstream's errors. The store lives on the main thread, so this
 * answers there, reading the store and writing the answer in slices of a few milliseconds (the
 * whole of a store of 100,000 exemplars is megabytes). Undefined stands for a query without
 * selectors, which upstream answers with `204 No Content`.
 */
export async function queryExemplars(
  store: ExemplarQuerier,
  params: URLSearchParams,
  parser?: ParserOptions,
): Promise<JsonText | undefined> {
  const start = timeParam(params, 'start', MIN_TIME_MS);
  const end = timeParam(params, 'end', MAX_TIME_MS);
  if (end < start) {
    throw new PrometheusApiError('bad_data', 'end timestamp must not be before start timestamp');
  }
  let expr: Expr;
  try {
    expr = parseExpr(params.get('query') ?? '', parser);
  } catch (error) {
    throw new PrometheusApiError('bad_data', (error as Error).message);
  }
  const selectors = selectorMatchers(expr);
  if (selectors.length === 0) return undefined;
  return new JsonText(await exemplarsJson(await store.selectInSlices(start, end, selectors)));
}

/** A time parameter, worded as upstream's `parseTimeParam` words a bad one. */
function timeParam(params: URLSearchParams, name: string, fallback: number): number {
  const text = params.get(name);
  try {
    return parseTimeParam(name, text, fallback);
  } catch {
    throw invalidParam(
      name,
      `Invalid time value for '${name}': cannot parse ${goQuote(text ?? '')} to a valid timestamp`,
    );
  }
}

/** The matchers of every vector selector in the query, range selectors' and subqueries' too. */
export function selectorMatchers(expr: Expr): (readonly LabelMatcher[])[] {
  const found: (readonly LabelMatcher[])[] = [];
  const visit = (node: Expr): void => {
    switch (node.kind) {
      case 'vectorSelector':
        found.push(node.matchers);
        return;
      case 'matrixSelector':
        return visit(node.selector);
      case 'subquery':
      case 'unary':
      case 'paren':
        return visit(node.expr);
      case 'aggregate':
        if (node.param !== undefined) visit(node.param);
        return visit(node.expr);
      case 'binary':
        visit(node.lhs);
        return visit(node.rhs);
      case 'call':
        return node.args.forEach(visit);
      case 'number':
      case 'string':
        return;
    }
  };
  visit(expr);
  return found;
}
