import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseExpr } from './parser/parse-expr';
import { prettifyExpr } from './prettify';
import { formatExpr } from './printer';

/**
 * Queries as written and as Prometheus's `/api/v1/format_query` pretty-prints them: every kind of
 * node, short enough for one line and split, and the 100-byte line limit from both sides. Where
 * Prometheus 2.42 prints otherwise because its one-line form differs (it drops `ignoring ()
 * group_left ()`, which 3.x keeps), `prometheus2` holds its answer and `pretty` this server's.
 */
interface PrettifyCase {
  readonly query: string;
  readonly pretty: string;
  readonly prometheus2?: string;
}

const CASES: PrettifyCase[] = JSON.parse(
  readFileSync(join(__dirname, 'testdata', 'prettify-cases.json'), 'utf8'),
);

describe('PromQL pretty-printed as upstream prints it', () => {
  it.each(CASES.map((c) => [c.query, c.pretty]))('%s', (query, pretty) => {
    expect(prettifyExpr(parseExpr(query))).toBe(pretty);
  });

  it.each(CASES.map((c) => [c.query]))('reads back as the same expression: %s', (query) => {
    const expr = parseExpr(query);
    expect(formatExpr(parseExpr(prettifyExpr(expr)))).toBe(formatExpr(expr));
  });
});
