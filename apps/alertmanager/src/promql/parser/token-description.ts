import { goQuote } from '../../labels/go-quote';
import { atDescription, wordKind, type PromqlDialect } from './dialect';
import { scanNumberToken } from './number-token';
import { scanStringToken } from './string-token';

/** Operators, as upstream's lexer items print them: `<op:+>`. */
const OPERATORS = ['==', '!=', '>=', '<=', '=~', '!~', '>', '<', '+', '-', '*', '/', '%', '^'];
/** Punctuation, printed quoted: `"}"`. */
const PUNCTUATION = ['=', '(', ')', '{', '}', '[', ']', ','];

/**
 * The token starting at `at` (or after the blanks and comments there), described as upstream's
 * lexer item in `unexpected ...` (its `Item.desc`): `identifier "foo"`, `metric identifier
 * "a:b"`, `<op:+>`, `<by>`, `<aggr:sum>`, `"("`, `end of input`, and numbers, durations and
 * strings of more than 10 bytes cut to their first 10 characters (`string "\"a long st"...`).
 * Inside braces a word is an identifier, as upstream's lexer reads it there.
 */
export function describeTokenAt(
  input: string,
  at: number,
  dialect: PromqlDialect = 'v3',
  insideBraces = false,
): string {
  const i = skipBlanks(input, at);
  if (i >= input.length) return 'end of input';
  const rest = input.slice(i);
  if (rest[0] === '@') return atDescription(dialect);
  // Inside braces upstream's lexer knows only `=`, `!=`, `=~` and `!~` (`==` is `=` twice).
  const operator = OPERATORS.find(
    (s) => rest.startsWith(s) && (!insideBraces || s[1] === '~' || s === '!='),
  );
  if (operator !== undefined) return `<op:${operator}>`;
  const punctuation = PUNCTUATION.find((s) => rest.startsWith(s));
  if (punctuation !== undefined) return `"${punctuation}"`;
  const word = (insideBraces ? /^[a-zA-Z_][a-zA-Z0-9_]*/ : /^[a-zA-Z_:][a-zA-Z0-9_:]*/).exec(
    rest,
  )?.[0];
  if (word !== undefined) {
    const kind = insideBraces
      ? 'identifier'
      : wordKind(word, dialect, /^\s*\(/.test(rest.slice(word.length)));
    if (kind === 'identifier') return `identifier ${goQuote(word)}`;
    if (kind === 'metricIdentifier') return `metric identifier ${goQuote(word)}`;
    if (kind === 'keyword') return `<${word}>`;
    if (kind === 'operator') return `<op:${word}>`;
    if (kind === 'aggregator') return `<aggr:${word}>`;
    if (kind === 'number') return `number ${itemText(word)}`;
    return itemText(word);
  }
  if (/^[0-9.]/.test(rest)) {
    // Upstream's lexer makes a number with units (`1m`, `1h30m`) a duration item.
    const { end, kind } = scanNumberToken(input, i, dialect);
    return `${kind === 'duration' ? 'duration' : 'number'} ${itemText(input.slice(i, end))}`;
  }
  if (rest[0] === '"' || rest[0] === "'" || rest[0] === '`') {
    return `string ${itemText(input.slice(i, scanStringToken(input, i).end))}`;
  }
  return `character ${JSON.stringify(rest[0])}`;
}

/** Where the next token starts: past blanks and `#` comments. */
export function skipBlanks(input: string, at: number): number {
  let i = at;
  for (;;) {
    while (i < input.length && ' \t\n\r'.includes(input[i])) i++;
    if (input[i] !== '#') return i;
    while (i < input.length && input[i] !== '\n' && input[i] !== '\r') i++;
  }
}

/** Go's `%q` of an item's text, or `%.10q...` past 10 bytes (its first 10 characters). */
function itemText(text: string): string {
  if (Buffer.byteLength(text) <= 10) return goQuote(text);
  return `${goQuote([...text].slice(0, 10).join(''))}...`;
}
