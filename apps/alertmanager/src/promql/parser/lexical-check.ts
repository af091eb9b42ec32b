import { DurationParseError, parseDuration } from '../../time/duration';
import type { ParseProblem } from './parse-error';

const DURATION_KEYWORDS = ['step', 'range', 'min_of', 'max_of'];

const isDigit = (c: string) => c >= '0' && c <= '9';
const isAlpha = (c: string) => c === '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
const isAlphaNumeric = (c: string) => isAlpha(c) || isDigit(c);
const isSpace = (c: string) => c === ' ' || c === '\t' || c === '\n' || c === '\r';

/** Go's `%q` of a single character: `'x'`. */
function quoteChar(c: string): string {
  if (c === "'") return "'\\''";
  if (c === '\\') return "'\\\\'";
  if (c === '\n') return "'\\n'";
  if (c === '\t') return "'\\t'";
  return `'${c}'`;
}

/** Go's `%#U`: `U+0063 'c'`. */
function unicodeName(c: string): string {
  const code = (c.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0');
  return `U+${code} ${quoteChar(c)}`;
}

class Stop extends Error {
  constructor(readonly problem: ParseProblem) {
    super(problem.message);
  }
}

/**
 * Finds the first error upstream's lexer would report (unterminated strings, bad escapes,
 * malformed numbers and durations, unexpected characters, unbalanced parentheses), with its
 * message and position. The grammar finds structure errors; these are the ones it words
 * differently or not at all.
 */
export function lexicalProblem(input: string): ParseProblem | undefined {
  try {
    new LexicalScan(input).run();
    return undefined;
  } catch (error) {
    if (error instanceof Stop) return error.problem;
    throw error;
  }
}

class LexicalScan {
  private pos = 0;
  private start = 0;
  private parenDepth = 0;
  private braceOpen = false;
  private bracketOpen = false;
  private inDuration = false;
  private gotColon = false;
  private gotDuration = false;

  constructor(private readonly input: string) {}

  run(): void {
    for (;;) {
      this.start = this.pos;
      if (this.braceOpen) this.insideBraces();
      else if (this.inDuration) this.durationExpr();
      else if (this.statements()) return;
    }
  }

  /** Upstream's lexer emits the `)` before it finds it unbalanced: the error sits just after it. */
  private unbalancedRightParen(r: string): never {
    throw new Stop({
      pos: { start: this.pos, end: this.input.length },
      message: `unexpected right parenthesis ${quoteChar(r)}`,
      foundAt: this.start,
    });
  }

  private fail(message: string): never {
    throw new Stop({ pos: { start: this.start, end: this.input.length }, message });
  }

  private next(): string {
    return this.input[this.pos++] ?? '';
  }

  private peek(): string {
    return this.input[this.pos] ?? '';
  }

  private skipComment(): boolean {
    if (this.input[this.pos] !== '#') return false;
    while (this.pos < this.input.length && this.input[this.pos] !== '\n') this.pos++;
    return true;
  }

  /** One token of the statement state; true at the end of input. */
  private statements(): boolean {
    if (this.skipComment()) return false;
    const r = this.next();
    switch (true) {
      case r === '':
        if (this.parenDepth !== 0) this.fail('unclosed left parenthesis');
        if (this.bracketOpen) this.fail('unclosed left bracket');
        return true;
      case isSpace(r) || ',*/%+-^@'.includes(r):
        return false;
      case r === '=':
        if (this.peek() === '=') this.pos++;
        else if (this.peek() === '~')
          this.fail(`unexpected character after '=': ${quoteChar('~')}`);
        return false;
      case r === '!': {
        const t = this.next();
        if (t !== '=') this.fail(`unexpected character after '!': ${quoteChar(t)}`);
        return false;
      }
      case r === '<' || r === '>':
        if (this.peek() === '=' || this.peek() === '/') this.pos++;
        return false;
      case isDigit(r) || (r === '.' && isDigit(this.peek())):
        this.pos--;
        this.numberOrDuration();
        return false;
      case r === '"' || r === "'":
        this.string(r);
        return false;
      case r === '`':
        this.rawString();
        return false;
      case isAlpha(r) || r === ':':
        if (!this.bracketOpen) {
          while (isAlphaNumeric(this.peek()) || this.peek() === ':') this.pos++;
          return false;
        }
        if (r === ':') {
          if (this.gotColon) this.fail(`unexpected colon ${quoteChar(r)}`);
          this.gotColon = true;
          return false;
        }
        if (this.durationKeyword()) return false;
        return this.fail(`unexpected character: ${quoteChar(r)}, expected ${quoteChar(':')}`);
      case r === '(':
        this.parenDepth++;
        return false;
      case r === ')':
        this.parenDepth--;
        if (this.parenDepth < 0) this.unbalancedRightParen(r);
        return false;
      case r === '{':
        this.braceOpen = true;
        return false;
      case r === '[':
        if (this.bracketOpen) this.fail(`unexpected left bracket ${quoteChar(r)}`);
        this.gotColon = false;
        this.gotDuration = false;
        this.bracketOpen = true;
        this.inDuration = true;
        return false;
      case r === ']':
        if (!this.bracketOpen) this.fail(`unexpected right bracket ${quoteChar(r)}`);
        this.bracketOpen = false;
        return false;
      default:
        return this.fail(`unexpected character: ${quoteChar(r)}`);
    }
  }

  private insideBraces(): void {
    if (this.skipComment()) return;
    const r = this.next();
    switch (true) {
      case r === '':
        this.fail('unexpected end of input inside braces');
        return;
      case isSpace(r) || r === ',':
        return;
      case isAlpha(r):
        while (isAlphaNumeric(this.peek()) || this.peek() === ':') this.pos++;
        return;
      case r === '"' || r === "'":
        this.string(r);
        return;
      case r === '`':
        this.rawString();
        return;
      case r === '=':
        if (this.peek() === '~') this.pos++;
        return;
      case r === '!': {
        const t = this.next();
        if (t !== '~' && t !== '=')
          this.fail(`unexpected character after '!' inside braces: ${quoteChar(t)}`);
        return;
      }
      case r === '{':
        this.fail(`unexpected left brace ${quoteChar(r)}`);
        return;
      case r === '}':
        this.braceOpen = false;
        return;
      default:
        this.fail(`unexpected character inside braces: ${quoteChar(r)}`);
    }
  }

  private durationExpr(): void {
    const r = this.next();
    switch (true) {
      case r === '':
        this.fail('unexpected end of input in duration expression');
        return;
      case r === ']':
        this.bracketOpen = false;
        this.inDuration = false;
        this.gotColon = false;
        return;
      case r === ':':
        if (!this.gotDuration) this.fail('unexpected colon before duration in duration expression');
        if (this.gotColon) this.fail('unexpected repeated colon in duration expression');
        this.gotColon = true;
        return;
      case r === '(':
        this.parenDepth++;
        return;
      case r === ')':
        this.parenDepth--;
        if (this.parenDepth < 0) this.unbalancedRightParen(r);
        return;
      case isSpace(r) || '+-*/%^,'.includes(r):
        return;
      case isDigit(r) || (r === '.' && isDigit(this.peek())):
        this.pos--;
        this.gotDuration = true;
        // A number or duration hands back to the statement state, as upstream's lexer does.
        this.inDuration = false;
        this.numberOrDuration();
        return;
      case 'srmSRM'.includes(r) && this.durationKeyword():
        return;
      default:
        this.fail(`unexpected character in duration expression: ${quoteChar(r)}`);
    }
  }

  /** `step`, `range`, `min_of`, `max_of` (any case) where a duration is expected. */
  private durationKeyword(): boolean {
    const at = this.pos - 1;
    for (const word of DURATION_KEYWORDS) {
      const text = this.input.slice(at, at + word.length);
      if (text.toLowerCase() === word && !isAlphaNumeric(this.input[at + word.length] ?? '')) {
        this.pos = at + word.length;
        return true;
      }
    }
    return false;
  }

  private numberOrDuration(): void {
    if (this.scanNumber()) return;
    if (this.remainingDuration()) {
      this.pos--;
      const text = this.input.slice(this.start, this.pos);
      try {
        parseDuration(text);
      } catch (error) {
        if (error instanceof DurationParseError) this.fail(error.message);
        throw error;
      }
      return;
    }
    this.fail(
      `bad number or duration syntax: ${JSON.stringify(this.input.slice(this.start, this.pos))}`,
    );
  }

  private accept(valid: string): boolean {
    const c = this.peek();
    if (c !== '' && valid.includes(c)) {
      this.pos++;
      return true;
    }
    return false;
  }

  private is(valid: string): boolean {
    const c = this.peek();
    return c !== '' && valid.includes(c);
  }

  /** Upstream's number scan: digits, one dot, one exponent, underscores between digits, hex. */
  private scanNumber(): boolean {
    const initial = this.pos;
    let digits = '0123456789';
    if (this.accept('0') && this.accept('xX')) {
      this.accept('_');
      digits = '0123456789abcdefABCDEF';
    }
    this.accept('.');
    this.accept(digits);
    let dot = false;
    let exponent = false;
    while (this.is(`${digits}._eE`)) {
      if (this.is('.') && dot) {
        this.accept('.');
        return false;
      }
      if (this.is('eE') && exponent && digits.length === 10) {
        this.accept('eE');
        return false;
      }
      if (this.accept('.')) {
        dot = true;
        if (this.accept('_.')) return false;
        if (digits.length > 10) return false;
        continue;
      }
      if (digits.length === 10 && this.accept('eE')) {
        exponent = true;
        this.accept('+-');
        if (this.accept('._eE') || this.peek() === '') return false;
        continue;
      }
      if (this.accept('_')) {
        if (this.accept('._eE') || this.peek() === '') return false;
        continue;
      }
      while (this.accept(digits));
    }
    if (this.pos === initial) return false;
    return !isAlphaNumeric(this.peek());
  }

  private remainingDuration(): boolean {
    if (!this.accept('smhdwy')) return false;
    this.accept('s');
    while (this.accept('0123456789')) {
      while (this.accept('0123456789'));
      if (!this.accept('smhdw')) return false;
      this.accept('s');
    }
    return !isAlphaNumeric(this.next());
  }

  private string(quote: string): void {
    for (;;) {
      const c = this.next();
      if (c === '\\') this.escape(quote);
      else if (c === '' || c === '\n') this.fail('unterminated quoted string');
      else if (c === quote) return;
    }
  }

  private rawString(): void {
    for (;;) {
      const c = this.next();
      if (c === '') this.fail('unterminated raw string');
      if (c === '`') return;
    }
  }

  private escape(quote: string): void {
    let c = this.next();
    let n: number;
    let base: number;
    let max: number;
    if (('abfnrtv\\'.includes(c) && c !== '') || c === quote) return;
    if (c >= '0' && c <= '7') [n, base, max] = [3, 8, 255];
    else if (c === 'x') [c, n, base, max] = [this.next(), 2, 16, 255];
    else if (c === 'u') [c, n, base, max] = [this.next(), 4, 16, 0x10ffff];
    else if (c === 'U') [c, n, base, max] = [this.next(), 8, 16, 0x10ffff];
    else if (c === '') this.fail('escape sequence not terminated');
    else this.fail(`unknown escape sequence ${unicodeName(c)}`);
    let x = 0;
    while (n > 0) {
      const d = c === '' ? 99 : parseInt(c, 16);
      if (Number.isNaN(d) || d >= base) {
        if (c === '') this.fail('escape sequence not terminated');
        this.fail(`illegal character ${unicodeName(c)} in escape sequence`);
      }
      x = x * base + d;
      n--;
      if (n > 0) c = this.next();
    }
    if (x > max || (x >= 0xd800 && x < 0xe000))
      this.fail('escape sequence is an invalid Unicode code point');
  }
}
