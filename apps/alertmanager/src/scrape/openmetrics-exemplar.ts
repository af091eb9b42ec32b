import { Labels } from '../tsdb/labels';
import { parseFloatGo } from './go-parse-float';

/** An exemplar as the exposition gives it: labels, value, and its own time when it has one. */
export interface ScrapedExemplar {
  readonly labels: Labels;
  readonly value: number;
  readonly timestampMs: number | undefined;
}

/** Metric names that may carry exemplars: counters' and histogram buckets' samples. */
const EXEMPLAR_SUFFIXES = ['_total', '_bucket'];

/** The tokens of upstream's OpenMetrics lexer an exemplar is read in, named as its errors name them. */
type Token =
  | 'LNAME'
  | 'EQUAL'
  | 'COMMA'
  | 'BCLOSE'
  | 'LVALUE'
  | 'VALUE'
  | 'TIMESTAMP'
  | 'LINEBREAK'
  | 'INVALID';

/**
 * Where a standalone `#` stands among a sample line's fields (after the value: 1, after the
 * timestamp: 2), and the line's text from the blank before it; reads what follows as
 * upstream's OpenMetrics lexer does. ` # {` opens an exemplar, read by {@link readExemplar};
 * a `#` ending the line is a timestamp that does not parse; anything else is refused.
 */
export function exemplarAfterHash(
  metricName: string,
  field: number,
  text: string,
  fail: (reason: string) => never,
): ScrapedExemplar {
  const after = text.slice(2);
  if (after === '') {
    // The lexer takes a lone `#` for a timestamp.
    if (field === 1) fail('strconv.ParseFloat: parsing "#": invalid syntax');
    fail('expected next entry after timestamp, got "TIMESTAMP"');
  }
  if (text[0] !== ' ' || !after.startsWith(' {')) {
    if (field === 1) fail('expected timestamp or # symbol, got "INVALID"');
    fail('expected next entry after timestamp, got "INVALID"');
  }
  return readExemplar(metricName, after.slice(2), fail);
}

/**
 * An exemplar's labels (from after its `{`), value and optional timestamp (seconds), with
 * upstream's OpenMetrics parser's checks and errors: only on `_total` and `_bucket` samples,
 * label values kept as written (upstream does not unescape them), the timestamp truncated to
 * the millisecond. A label with an empty value is left out.
 */
function readExemplar(
  metricName: string,
  text: string,
  fail: (reason: string) => never,
): ScrapedExemplar {
  if (!EXEMPLAR_SUFFIXES.some((suffix) => metricName.endsWith(suffix))) {
    fail(`metric name ${metricName} does not support exemplars`);
  }
  const lexer = new ExemplarLexer(text);
  const got = (expected: string, token: Token): never => fail(`${expected}, got "${token}"`);
  const pairs: [string, string][] = [];
  for (let first = true; ; first = false) {
    let token = lexer.next();
    if (token === 'BCLOSE') break;
    if (token === 'COMMA') {
      if (first) got('expected label name or left brace', token);
      token = lexer.next();
      if (token !== 'LNAME') got('expected label name', token);
    } else if (token === 'LNAME') {
      if (!first) got('expected comma', token);
    } else {
      got(first ? 'expected label name or left brace' : 'expected comma or left brace', token);
    }
    const name = lexer.text;
    token = lexer.next();
    if (token !== 'EQUAL') got('expected equal', token);
    token = lexer.next();
    if (token !== 'LVALUE') got('expected label value', token);
    pairs.push([name, lexer.text.slice(1, -1)]);
  }
  let token = lexer.next();
  if (token !== 'VALUE') got('expected value after exemplar labels', token);
  const value = parseOpenMetricsFloat(lexer.text.slice(1), fail);
  let timestampMs: number | undefined;
  token = lexer.next();
  if (token === 'TIMESTAMP') {
    const seconds = parseOpenMetricsFloat(lexer.text.slice(1), fail);
    if (!Number.isFinite(seconds)) fail('invalid exemplar timestamp');
    // Go's int64 conversion: toward zero.
    timestampMs = Math.trunc(seconds * 1000);
    token = lexer.next();
    if (token !== 'LINEBREAK') got('expected next entry after exemplar timestamp', token);
  } else if (token !== 'LINEBREAK') {
    got('expected timestamp or comment', token);
  }
  return { labels: Labels.from(pairs), value, timestampMs };
}

/**
 * The states of upstream's OpenMetrics lexer past ` # {`: label names, `=`, `,` and `}`; a
 * quoted value after `=`, or the exemplar's value after `}`; then its timestamp. The line's end
 * is the line break. Like upstream's, it does not back up: text no rule matches is `INVALID`.
 */
class ExemplarLexer {
  private i = 0;
  private state: 'labels' | 'value' | 'timestamp' = 'labels';
  /** The text of the last token. */
  text = '';

  constructor(private readonly line: string) {}

  next(): Token {
    const { line } = this;
    const start = this.i;
    const c = line[start];
    const take = (end: number, token: Token): Token => {
      this.text = line.slice(start, end);
      this.i = end;
      return token;
    };
    if (this.state === 'labels') {
      if (c !== undefined && /[a-zA-Z_]/.test(c)) {
        let end = start + 1;
        while (end < line.length && /[a-zA-Z0-9_]/.test(line[end])) end++;
        return take(end, 'LNAME');
      }
      if (c === '}' || c === '=') {
        this.state = 'value';
        return take(start + 1, c === '}' ? 'BCLOSE' : 'EQUAL');
      }
      if (c === ',') return take(start + 1, 'COMMA');
      return 'INVALID';
    }
    if (c === undefined) return this.state === 'timestamp' ? take(start, 'LINEBREAK') : 'INVALID';
    if (this.state === 'value' && c === '"') {
      let end = start + 1;
      while (end < line.length && line[end] !== '"') end += line[end] === '\\' ? 2 : 1;
      if (end >= line.length) return 'INVALID';
      this.state = 'labels';
      return take(end + 1, 'LVALUE');
    }
    if (c === ' ' && start + 1 < line.length && line[start + 1] !== ' ') {
      const blank = line.indexOf(' ', start + 1);
      const end = blank === -1 ? line.length : blank;
      const token = this.state === 'value' ? 'VALUE' : 'TIMESTAMP';
      this.state = 'timestamp';
      return take(end, token);
    }
    return 'INVALID';
  }
}

/** Upstream's float parsing of OpenMetrics numbers: Go's `ParseFloat` without `p` or `_`. */
function parseOpenMetricsFloat(text: string, fail: (reason: string) => never): number {
  if (/[pP_]/.test(text)) fail('unsupported character in float');
  return parseFloatGo(text, fail);
}
