import { goQuote } from '../../labels/go-quote';
import { unquoteString } from '../../promql/parser/string-literal';
import { compileAnchoredRe2, RegexpSyntaxError } from '../../re2';
import { AGGREGATORS, Lexer, type Token, type TokenType } from './metric-selector-lexer';

/** A label matcher of a selector: the label's name and whether a value (`""` when absent) matches. */
export interface SelectorMatcher {
  readonly name: string;
  readonly matches: (value: string) => boolean;
}

/** Why a selector was refused, worded as Prometheus 2.42: `1:5: parse error: ...`. */
export class MetricSelectorError extends Error {}

/**
 * Prometheus 2.42's `parser.ParseMetricSelector`, as `/api/v1/targets/metadata` reads its
 * `match_target`: a metric name, label matchers in braces, or both; `{}` is allowed. Regexes are
 * anchored as `^(?:re)$` with Go's RE2 semantics (`.` does not match a newline, as in 2.42).
 * Anything else is refused with 2.42's first error: its lexer's, its yacc grammar's
 * (`unexpected "(" `, `... in label matching, expected string`) or a bad regex's, at the byte
 * position upstream reports.
 *
 * This is not the query API's PromQL parser on purpose: that one follows a later Prometheus
 * (quoted label names, other regex anchoring and messages), where this parameter keeps 2.42's.
 */
export function parseMetricSelector(input: string): SelectorMatcher[] {
  const lexer = new Lexer(input);
  const fail = (pos: number, message: string): never => {
    throw new MetricSelectorError(`${position(input, pos)} parse error: ${message}`);
  };
  const unexpected = (token: Token, context = '', expected = ''): never =>
    fail(
      token.pos,
      `unexpected ${describe(token)}${context && ` in ${context}`}${expected && `, expected ${expected}`}`,
    );
  const next = (): Token => {
    const token = lexer.next();
    if (token.type === 'error') fail(token.pos, token.value);
    return token;
  };

  const matchers: SelectorMatcher[] = [];
  let token = next();
  let name: string | undefined;
  if (isMetricIdentifier(token)) {
    name = token.value;
    token = next();
  } else if (token.type !== '{') {
    unexpected(token);
  }
  if (token.type === '{') {
    token = next();
    if (token.type !== '}') {
      for (;;) {
        if (token.type !== 'identifier') unexpected(token, 'label matching', 'identifier or "}"');
        const label = token;
        const op = next();
        if (!MATCH_OPS.has(op.type)) unexpected(op, 'label matching', 'label matching operator');
        const value = next();
        if (value.type !== 'string') unexpected(value, 'label matching', 'string');
        matchers.push(labelMatcher(label, op.type, value, fail));
        token = next();
        if (token.type === '}') break;
        if (token.type !== ',') unexpected(token, 'label matching', '"," or "}"');
        token = next();
        if (token.type === '}') break;
      }
    }
    token = next();
  }
  if (token.type !== 'eof') unexpected(token);
  if (name !== undefined) matchers.push(equalMatcher('__name__', name));
  return matchers;
}

const MATCH_OPS = new Set<TokenType>(['=', '!=', '=~', '!~']);
/** The words 2.42's grammar takes as a metric name besides identifiers (`metric_identifier`). */
const NAME_WORDS = new Set([
  ...AGGREGATORS,
  'by',
  'and',
  'or',
  'unless',
  'offset',
  'without',
  'start',
  'end',
]);

function isMetricIdentifier(token: Token): boolean {
  return (
    token.type === 'identifier' ||
    token.type === 'metricIdentifier' ||
    ((token.type === 'keyword' ||
      token.type === 'operator' ||
      token.type === 'aggregator' ||
      token.type === 'preprocessor') &&
      NAME_WORDS.has(token.value.toLowerCase()))
  );
}

/** A token as 2.42's `Item.desc()` describes it in `unexpected ...`. */
function describe(token: Token): string {
  const { type, value } = token;
  switch (type) {
    case 'eof':
      return 'end of input';
    case 'identifier':
      return `identifier ${goQuote(value)}`;
    case 'metricIdentifier':
      return `metric identifier ${goQuote(value)}`;
    case 'keyword':
      return `<${value}>`;
    case 'operator':
    case '!=':
    case '=~':
    case '!~':
      return `<op:${value}>`;
    case 'aggregator':
      return `<aggr:${value}>`;
    case 'at':
      // `@` has no entry in upstream's table of item names: its type prints as a number.
      return `"<Item 57385>" <op:@>`;
    case 'number':
      return `number ${shortQuote(value)}`;
    case 'duration':
      return `duration ${shortQuote(value)}`;
    case 'string':
      return `string ${shortQuote(value)}`;
    default:
      // Punctuation and `start`/`end`, quoted as written.
      return shortQuote(value);
  }
}

/** Go's `%q`, or `%.10q...` for a text of more than 10 bytes (its first 10 characters). */
function shortQuote(value: string): string {
  if (Buffer.byteLength(value, 'utf8') <= 10) return goQuote(value);
  return `${goQuote([...value].slice(0, 10).join(''))}...`;
}

/** `line:column:` of a position, columns counted in bytes as Go does. */
function position(input: string, pos: number): string {
  const before = input.slice(0, pos);
  const lines = before.split('\n');
  const lastLine = lines[lines.length - 1];
  return `${lines.length}:${Buffer.byteLength(lastLine, 'utf8') + 1}:`;
}

function equalMatcher(name: string, value: string): SelectorMatcher {
  return { name, matches: (v) => v === value };
}

function labelMatcher(
  label: Token,
  op: TokenType,
  quoted: Token,
  fail: (pos: number, message: string) => never,
): SelectorMatcher {
  let value: string;
  try {
    value = unquoteString(quoted.value);
  } catch {
    return fail(quoted.pos, `error unquoting string ${goQuote(quoted.value)}: invalid syntax`);
  }
  const name = label.value;
  if (op === '=') return equalMatcher(name, value);
  if (op === '!=') return { name, matches: (v) => v !== value };
  let test: (v: string) => boolean;
  try {
    const pattern = compileAnchoredRe2(value);
    test = (v) => pattern.matches(v);
  } catch (error) {
    if (error instanceof RegexpSyntaxError) return fail(label.pos, error.message);
    throw error;
  }
  return { name, matches: op === '=~' ? test : (v) => !test(v) };
}
