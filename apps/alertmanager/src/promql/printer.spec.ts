import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseExpr } from './parser/parse-expr';
import { formatExpr } from './printer';

/** Queries as written, and as Prometheus prints them back (its `String()` of the parsed tree). */
const CASES: { query: string; printed: string }[] = JSON.parse(
  readFileSync(join(__dirname, 'testdata', 'printer-cases.json'), 'utf8'),
);

describe('PromQL printed back as upstream prints it', () => {
  it.each(CASES.map((c) => [c.query, c.printed]))('%s', (query, printed) => {
    expect(formatExpr(parseExpr(query))).toBe(printed);
    // Printing is a fixed point: the printed form parses to the same print.
    expect(formatExpr(parseExpr(printed))).toBe(printed);
  });
});
