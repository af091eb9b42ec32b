import { Matcher, type MatchType } from './matcher';

/** A matcher string that does not parse; the message is upstream's text. */
export class MatcherParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MatcherParseError';
  }
}

// Go's `\s` is ASCII whitespace only, so spell it out instead of using JavaScript's `\s`.
// Upstream's pattern ends in a lazy value and `\s*$`, which a backtracking engine runs in time
// quadratic in a run of inner spaces: trailing whitespace is cut first instead.
const MATCHER_FORMAT =
  /^[\t\n\f\r ]*([a-zA-Z_:][a-zA-Z0-9_:]*)[\t\n\f\r ]*(=~|=|!=|!~)[\t\n\f\r ]*([\s\S]*)$/;

const GO_SPACE = new Set(['\t', '\n', '\f', '\r', ' ']);

function trimEndGoSpace(text: string): string {
  let end = text.length;
  while (end > 0 && GO_SPACE.has(text[end - 1])) end--;
  return text.slice(0, end);
}

/**
 * Parses one matcher with the classic syntax: a label name, an operator and a value that may be
 * double-quoted. Inside the value `\"`, `\\` and `\n` are escapes; any other backslash is literal.
 * Regex values are compiled, so a bad regex throws RegexpSyntaxError.
 */
export function parseMatcher(input: string): Matcher {
  const m = MATCHER_FORMAT.exec(trimEndGoSpace(input));
  if (!m) throw new MatcherParseError(`bad matcher format: ${input}`);
  const [, name, op, raw] = m;
  const unquoteError = () =>
    new MatcherParseError(`matcher value contains unescaped double quote: ${raw}`);
  const quoted = raw.startsWith('"');
  const body = quoted ? raw.slice(1) : raw;
  let value = '';
  let closed = !quoted;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '\\' && i < body.length - 1) {
      const next = body[++i];
      value += next === 'n' ? '\n' : next === '"' || next === '\\' ? next : `\\${next}`;
    } else if (c === '"') {
      if (closed || i < body.length - 1) throw unquoteError();
      closed = true;
    } else {
      value += c;
    }
  }
  if (!closed) throw unquoteError();
  return new Matcher(op as MatchType, name, value);
}

/**
 * Parses a comma-separated list of matchers, optionally wrapped in `{...}`, such as
 * `{a="1", b=~"x|y"}`. Commas inside double quotes do not split; a trailing comma is allowed.
 */
export function parseMatchers(input: string): Matcher[] {
  let s = input.startsWith('{') ? input.slice(1) : input;
  if (s.endsWith('}')) s = s.slice(0, -1);
  const tokens: string[] = [];
  let token = '';
  let inQuotes = false;
  let escaped = false;
  for (const c of s) {
    if (c === ',' && !inQuotes) {
      tokens.push(token);
      token = '';
      continue;
    }
    if (c === '"') {
      if (escaped) escaped = false;
      else inQuotes = !inQuotes;
    } else if (c === '\\') {
      escaped = !escaped;
    } else {
      escaped = false;
    }
    token += c;
  }
  if (token.trim() !== '') tokens.push(token.trim());
  return tokens.map(parseMatcher);
}
