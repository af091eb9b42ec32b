import { goQuote } from '../../labels/go-quote';

export type TokenType =
  | 'eof'
  | 'error'
  | 'identifier'
  | 'metricIdentifier'
  | 'keyword'
  | 'operator'
  | 'aggregator'
  | 'preprocessor'
  | 'number'
  | 'duration'
  | 'string'
  | 'at'
  | '{'
  | '}'
  | '('
  | '['
  | ','
  | '='
  | '!='
  | '=~'
  | '!~';

export interface Token {
  readonly type: TokenType;
  /** The token's text as written; for an error, the lexer's message. */
  readonly value: string;
  /** Where it starts (UTF-16 index into the input). */
  readonly pos: number;
}

export const AGGREGATORS = new Set([
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
  'count_values',
  'quantile',
]);
const KEYWORDS = new Set([
  'offset',
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'bool',
]);
const WORD_OPERATORS = new Set(['and', 'or', 'unless', 'atan2']);
const EOF_RUNE = '';

/**
 * The part of Prometheus 2.42's PromQL lexer a selector reaches: tokens outside and inside
 * braces, strings with Go's escapes, numbers and durations, comments, and its error messages.
 * Past the first token that cannot belong to a selector nothing more is read, so brackets and
 * parentheses need no more than their first token.
 */
export class Lexer {
  private pos = 0;
  private braceOpen = false;

  constructor(private readonly input: string) {}

  next(): Token {
    for (;;) {
      const token = this.braceOpen ? this.insideBraces() : this.statement();
      if (token !== undefined) return token;
    }
  }

  private peek(): string {
    const code = this.input.codePointAt(this.pos);
    return code === undefined ? EOF_RUNE : String.fromCodePoint(code);
  }

  private read(): string {
    const rune = this.peek();
    this.pos += rune.length;
    return rune;
  }

  private token(type: TokenType, start: number): Token {
    return { type, value: this.input.slice(start, this.pos), pos: start };
  }

  private error(message: string, pos: number): Token {
    return { type: 'error', value: message, pos };
  }

  /** Skips a comment to the end of its line; undefined to read on. */
  private comment(): undefined {
    while (this.pos < this.input.length && !/[\r\n]/.test(this.input[this.pos])) this.pos++;
    return undefined;
  }

  private statement(): Token | undefined {
    const start = this.pos;
    if (this.input.startsWith('#', start)) return this.comment();
    const r = this.read();
    if (r === EOF_RUNE) return this.token('eof', start);
    if (isSpace(r)) return undefined;
    switch (r) {
      case ',':
        return this.token(',', start);
      case '*':
      case '/':
      case '%':
      case '+':
      case '-':
      case '^':
        return this.token('operator', start);
      case '=': {
        const t = this.peek();
        if (t === '=') {
          this.read();
          return this.token('operator', start);
        }
        if (t === '~') return this.error(`unexpected character after '=': ${quoteRune(t)}`, start);
        return this.token('=', start);
      }
      case '!': {
        const t = this.read();
        if (t === '=') return this.token('operator', start);
        return this.error(`unexpected character after '!': ${quoteRune(t)}`, start);
      }
      case '<':
      case '>':
        if (this.peek() === '=') this.read();
        return this.token('operator', start);
      case '"':
      case "'":
        return this.string(r, start);
      case '`':
        return this.rawString(start);
      case '(':
        return this.token('(', start);
      case ')':
        // Upstream emits it and then, no parenthesis being open, replaces it by an error.
        return this.error(`unexpected right parenthesis ')'`, this.pos);
      case '{':
        this.braceOpen = true;
        return this.token('{', start);
      case '[':
        return this.token('[', start);
      case ']':
        return this.error(`unexpected right bracket ']'`, start);
      case '@':
        return this.token('at', start);
    }
    if (isDigit(r) || (r === '.' && isDigit(this.peek()))) {
      this.pos = start;
      return this.numberOrDuration(start);
    }
    if (isAlpha(r) || r === ':') {
      while (isAlphaNumeric(this.peek()) || this.peek() === ':') this.read();
      return this.word(start);
    }
    return this.error(`unexpected character: ${quoteRune(r)}`, start);
  }

  private insideBraces(): Token | undefined {
    const start = this.pos;
    if (this.input.startsWith('#', start)) return this.comment();
    const r = this.read();
    if (r === EOF_RUNE) return this.error('unexpected end of input inside braces', start);
    if (isSpace(r)) return undefined;
    if (isAlpha(r)) {
      while (isAlphaNumeric(this.peek())) this.read();
      return this.token('identifier', start);
    }
    switch (r) {
      case ',':
        return this.token(',', start);
      case '"':
      case "'":
        return this.string(r, start);
      case '`':
        return this.rawString(start);
      case '=':
        if (this.peek() === '~') {
          this.read();
          return this.token('=~', start);
        }
        return this.token('=', start);
      case '!': {
        const nr = this.read();
        if (nr === '~') return this.token('!~', start);
        if (nr === '=') return this.token('!=', start);
        return this.error(`unexpected character after '!' inside braces: ${quoteRune(nr)}`, start);
      }
      case '{':
        return this.error(`unexpected left brace '{'`, start);
      case '}':
        this.braceOpen = false;
        return this.token('}', start);
    }
    return this.error(`unexpected character inside braces: ${quoteRune(r)}`, start);
  }

  /** A word: a keyword, `inf`/`nan`, or an identifier (a metric identifier with a colon). */
  private word(start: number): Token {
    const text = this.input.slice(start, this.pos);
    const lower = text.toLowerCase();
    if (lower === 'inf' || lower === 'nan') return this.token('number', start);
    if (AGGREGATORS.has(lower)) return this.token('aggregator', start);
    if (KEYWORDS.has(lower)) return this.token('keyword', start);
    if (WORD_OPERATORS.has(lower)) return this.token('operator', start);
    if (lower === 'start' || lower === 'end') return this.token('preprocessor', start);
    return this.token(text.includes(':') ? 'metricIdentifier' : 'identifier', start);
  }

  private string(quote: string, start: number): Token {
    for (;;) {
      const r = this.read();
      if (r === '\\') {
        const problem = this.escape(quote);
        if (problem !== undefined) return this.error(problem, start);
        continue;
      }
      if (r === '\uFFFD') return this.error('invalid UTF-8 rune', start);
      if (r === EOF_RUNE || r === '\n') return this.error('unterminated quoted string', start);
      if (r === quote) return this.token('string', start);
    }
  }

  private rawString(start: number): Token {
    for (;;) {
      const r = this.read();
      if (r === '\uFFFD') return this.error('invalid UTF-8 rune', start);
      if (r === EOF_RUNE) return this.error('unterminated raw string', start);
      if (r === '`') return this.token('string', start);
    }
  }

  /** Upstream's `lexEscape` after a backslash: undefined, or what is wrong with the escape. */
  private escape(quote: string): string | undefined {
    let ch = this.read();
    let n: number;
    let base: number;
    let max: number;
    if ('abfnrtv\\'.includes(ch) && ch !== EOF_RUNE) return undefined;
    if (ch === quote) return undefined;
    if (ch >= '0' && ch <= '7' && ch.length === 1) [n, base, max] = [3, 8, 255];
    else if (ch === 'x') [ch, n, base, max] = [this.read(), 2, 16, 255];
    else if (ch === 'u') [ch, n, base, max] = [this.read(), 4, 16, 0x10ffff];
    else if (ch === 'U') [ch, n, base, max] = [this.read(), 8, 16, 0x10ffff];
    else if (ch === EOF_RUNE) return 'escape sequence not terminated';
    else return `unknown escape sequence ${formatRuneU(ch)}`;
    let x = 0;
    while (n > 0) {
      const d = digitValue(ch);
      if (d >= base) {
        if (ch === EOF_RUNE) return 'escape sequence not terminated';
        return `illegal character ${formatRuneU(ch)} in escape sequence`;
      }
      x = x * base + d;
      n--;
      if (n > 0) ch = this.read();
    }
    if (x > max || (x >= 0xd800 && x < 0xe000))
      return 'escape sequence is an invalid Unicode code point';
    return undefined;
  }

  /** Upstream's `lexNumberOrDuration`. */
  private numberOrDuration(start: number): Token {
    if (this.scanNumber()) return this.token('number', start);
    if (this.acceptRemainingDuration()) {
      this.pos -= this.lastWidth;
      return this.token('duration', start);
    }
    return this.error(
      `bad number or duration syntax: ${goQuote(this.input.slice(start, this.pos))}`,
      start,
    );
  }

  /** Width of the rune `accept` last read (what Go's `backup` steps back over). */
  private lastWidth = 0;

  private accept(valid: string): boolean {
    const r = this.read();
    this.lastWidth = r.length;
    if (r !== EOF_RUNE && valid.includes(r)) return true;
    this.pos -= r.length;
    return false;
  }

  private acceptRun(valid: string): void {
    while (this.accept(valid));
  }

  private scanNumber(): boolean {
    let digits = '0123456789';
    if (this.accept('0') && this.accept('xX')) digits = '0123456789abcdefABCDEF';
    this.acceptRun(digits);
    if (this.accept('.')) this.acceptRun(digits);
    if (this.accept('eE')) {
      this.accept('+-');
      this.acceptRun('0123456789');
    }
    return !isAlphaNumeric(this.peek());
  }

  private acceptRemainingDuration(): boolean {
    if (!this.accept('smhdwy')) return false;
    this.accept('s');
    while (this.accept('0123456789')) {
      while (this.accept('0123456789'));
      if (!this.accept('smhdw')) return false;
      this.accept('s');
    }
    const r = this.read();
    this.lastWidth = r.length;
    return !isAlphaNumeric(r);
  }
}

function isSpace(r: string): boolean {
  return r === ' ' || r === '\t' || r === '\n' || r === '\r';
}

function isDigit(r: string): boolean {
  return r.length === 1 && r >= '0' && r <= '9';
}

function isAlpha(r: string): boolean {
  return r === '_' || (r.length === 1 && ((r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z')));
}

function isAlphaNumeric(r: string): boolean {
  return isAlpha(r) || isDigit(r);
}

function digitValue(ch: string): number {
  if (ch.length !== 1) return 16;
  if (ch >= '0' && ch <= '9') return ch.charCodeAt(0) - 48;
  if (ch >= 'a' && ch <= 'f') return ch.charCodeAt(0) - 87;
  if (ch >= 'A' && ch <= 'F') return ch.charCodeAt(0) - 55;
  return 16;
}

/** Go's `%q` of a rune: `'x'`, `'\n'`, `'\''`; the end of input (-1) prints as `'�'`. */
function quoteRune(r: string): string {
  if (r === EOF_RUNE) return `'\uFFFD'`;
  if (r === "'") return `'\\''`;
  if (r === '"') return `'"'`;
  return `'${goQuote(r).slice(1, -1)}'`;
}

/** Go's `%#U`: `U+007A 'z'`, without the quoted character when it is not printable. */
function formatRuneU(r: string): string {
  const code = r.codePointAt(0) as number;
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  const printable = r === '"' || r === '\\' || goQuote(r) === `"${r}"`;
  return printable ? `${hex} '${r}'` : hex;
}
