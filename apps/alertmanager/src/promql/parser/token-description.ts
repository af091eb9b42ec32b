/** Operators and punctuation as upstream's lexer names them in "unexpected ..." messages. */
const SYMBOLS = [
  '==',
  '!=',
  '>=',
  '<=',
  '=~',
  '!~',
  '=',
  '>',
  '<',
  '+',
  '-',
  '*',
  '/',
  '%',
  '^',
  '@',
  '(',
  ')',
  '{',
  '}',
  '[',
  ']',
  ',',
  ':',
];

const KEYWORDS = new Set([
  'and',
  'or',
  'unless',
  'atan2',
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'bool',
  'offset',
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

/** The token starting at `at`, described as upstream's lexer item (`identifier "foo"`, `"+"`). */
export function describeTokenAt(input: string, at: number): string {
  let i = at;
  while (i < input.length && /\s/.test(input[i])) i++;
  if (i >= input.length) return 'end of input';
  const rest = input.slice(i);
  const symbol = SYMBOLS.find((s) => rest.startsWith(s));
  if (symbol === '{') return 'left brace';
  if (symbol === '}') return 'right brace';
  if (symbol === '(') return 'left parenthesis';
  if (symbol === ')') return 'right parenthesis';
  if (symbol === '[') return 'left bracket';
  if (symbol === ']') return 'right bracket';
  if (symbol === ',') return 'comma';
  if (symbol !== undefined) return `"${symbol}"`;
  const word = /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(rest)?.[0];
  if (word !== undefined) {
    if (KEYWORDS.has(word.toLowerCase())) return `<${word.toLowerCase()}>`;
    return `identifier "${word}"`;
  }
  const number = /^[0-9.][0-9a-zA-Z_.]*/.exec(rest)?.[0];
  if (number !== undefined) return `number "${number}"`;
  if (rest[0] === '"' || rest[0] === "'" || rest[0] === '`')
    return `string ${JSON.stringify(rest)}`;
  return `character ${JSON.stringify(rest[0])}`;
}
