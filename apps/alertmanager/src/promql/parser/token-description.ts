/** Operators, as upstream's lexer items print them: `<op:+>`. */
const OPERATORS = ['==', '!=', '>=', '<=', '=~', '!~', '>', '<', '+', '-', '*', '/', '%', '^', '@'];
/** Punctuation, printed quoted: `"}"`. */
const PUNCTUATION = ['=', '(', ')', '{', '}', '[', ']', ',', ':'];

const KEYWORDS = new Set([
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'bool',
  'offset',
]);
const WORD_OPERATORS = new Set(['and', 'or', 'unless', 'atan2']);
const AGGREGATORS = new Set([
  'sum',
  'avg',
  'count',
  'min',
  'max',
  'group',
  'stddev',
  'stdvar',
  'topk',
  'bottomk',
  'quantile',
  'count_values',
  'limitk',
  'limit_ratio',
]);

const DURATION = /^(?:[0-9]+(?:ms|[smhdwy]))+$/;

/** The token starting at `at`, described as upstream's lexer item (`identifier "foo"`, `<op:+>`). */
export function describeTokenAt(input: string, at: number): string {
  let i = at;
  while (i < input.length && /\s/.test(input[i])) i++;
  if (i >= input.length) return 'end of input';
  const rest = input.slice(i);
  const operator = OPERATORS.find((s) => rest.startsWith(s));
  if (operator !== undefined) return `<op:${operator}>`;
  const punctuation = PUNCTUATION.find((s) => rest.startsWith(s));
  if (punctuation !== undefined) return `"${punctuation}"`;
  const word = /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(rest)?.[0];
  if (word !== undefined) {
    const lower = word.toLowerCase();
    if (KEYWORDS.has(lower)) return `<${lower}>`;
    if (WORD_OPERATORS.has(lower)) return `<op:${lower}>`;
    if (AGGREGATORS.has(lower)) return `<aggr:${lower}>`;
    return `identifier "${word}"`;
  }
  const number = /^[0-9.][0-9a-zA-Z_.]*/.exec(rest)?.[0];
  if (number !== undefined) {
    // Upstream's lexer makes a number with units (`1m`, `1h30m`) a duration item.
    return DURATION.test(number) ? `duration "${number}"` : `number "${number}"`;
  }
  if (rest[0] === '"' || rest[0] === "'" || rest[0] === '`')
    return `string ${JSON.stringify(rest)}`;
  return `character ${JSON.stringify(rest[0])}`;
}
