import { goQuote } from '../../labels/go-quote';
import { DurationParseError, parseDuration } from '../../time/duration';
import type { PromqlDialect } from './dialect';
import { goQuoteRune } from './go-rune';
import { scanNumberToken } from './number-token';
import type { ParseProblem } from './parse-error';
import { scanStringToken } from './string-token';

const DURATION_KEYWORDS = ['step', 'range', 'min_of', 'max_of'];

const isDigit = (c: string) => c >= '0' && c <= '9';
const isAlpha = (c: string) => c === '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
const isAlphaNumeric = (c: string) => isAlpha(c) || isDigit(c);
const isSpace = (c: string) => c === ' ' || c === '\t' || c === '\n' || c === '\r';

/** How the text is lexed. */
export interface LexicalOptions {
  /** Whose lexer: 2.42's reads numbers without `_` separators. */
  readonly dialect?: PromqlDialect;
  /**
   * Whether durations are read, so a malformed one (`1s1h`) is reported where it stands, as
   * upstream's parser does as it reads it (the default); a selector reads none.
   */
  readonly readsDurations?: boolean;
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
export function lexicalProblem(
  input: string,
  options: LexicalOptions = {},
): ParseProblem | undefined {
  try {
    new LexicalScan(input, options).run();
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
  /** Length of the character `next` last read (what Go's `backup` steps back over). */
  private width = 0;

  constructor(
    private readonly input: string,
    private readonly options: LexicalOptions,
  ) {}

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
      message: `unexpected right parenthesis ${goQuoteRune(r)}`,
      foundAt: this.start,
    });
  }

  private fail(message: string): never {
    throw new Stop({ pos: { start: this.start, end: this.input.length }, message });
  }

  /** The next character, a whole code point as Go reads a rune; `''` at the end. */
  private next(): string {
    const code = this.input.codePointAt(this.pos);
    const r = code === undefined ? '' : String.fromCodePoint(code);
    this.width = r.length;
    this.pos += r.length;
    return r;
  }

  private backup(): void {
    this.pos -= this.width;
  }

  private peek(): string {
    return this.input[this.pos] ?? '';
  }

  /** A `#` comment, to the end of its line (`\n` or `\r`). */
  private skipComment(): boolean {
    if (this.input[this.pos] !== '#') return false;
    while (this.pos < this.input.length && !'\r\n'.includes(this.input[this.pos])) this.pos++;
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
          this.fail(`unexpected character after '=': ${goQuoteRune('~')}`);
        return false;
      case r === '!': {
        const t = this.next();
        if (t !== '=') this.fail(`unexpected character after '!': ${goQuoteRune(t)}`);
        return false;
      }
      case r === '<' || r === '>':
        if (this.peek() === '=' || this.peek() === '/') this.pos++;
        return false;
      case isDigit(r) || (r === '.' && isDigit(this.peek())):
        this.backup();
        this.numberOrDuration();
        return false;
      case r === '"' || r === "'" || r === '`':
        this.string();
        return false;
      case isAlpha(r) || r === ':':
        if (!this.bracketOpen) {
          while (isAlphaNumeric(this.peek()) || this.peek() === ':') this.pos++;
          return false;
        }
        if (r === ':') {
          if (this.gotColon) this.fail(`unexpected colon ${goQuoteRune(r)}`);
          this.gotColon = true;
          return false;
        }
        if (this.durationKeyword()) return false;
        return this.fail(`unexpected character: ${goQuoteRune(r)}, expected ${goQuoteRune(':')}`);
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
        if (this.bracketOpen) this.fail(`unexpected left bracket ${goQuoteRune(r)}`);
        this.gotColon = false;
        this.gotDuration = false;
        this.bracketOpen = true;
        this.inDuration = true;
        return false;
      case r === ']':
        if (!this.bracketOpen) this.fail(`unexpected right bracket ${goQuoteRune(r)}`);
        this.bracketOpen = false;
        return false;
      default:
        return this.fail(`unexpected character: ${goQuoteRune(r)}`);
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
        while (isAlphaNumeric(this.peek())) this.pos++;
        return;
      case r === '"' || r === "'" || r === '`':
        this.string();
        return;
      case r === '=':
        if (this.peek() === '~') this.pos++;
        return;
      case r === '!': {
        const t = this.next();
        if (t !== '~' && t !== '=')
          this.fail(`unexpected character after '!' inside braces: ${goQuoteRune(t)}`);
        return;
      }
      case r === '{':
        this.fail(`unexpected left brace ${goQuoteRune(r)}`);
        return;
      case r === '}':
        this.braceOpen = false;
        return;
      default:
        this.fail(`unexpected character inside braces: ${goQuoteRune(r)}`);
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
        this.backup();
        this.gotDuration = true;
        // A number or duration hands back to the statement state, as upstream's lexer does.
        this.inDuration = false;
        this.numberOrDuration();
        return;
      case 'srmSRM'.includes(r) && this.durationKeyword():
        return;
      default:
        this.fail(`unexpected character in duration expression: ${goQuoteRune(r)}`);
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

  /** A number or a duration, its problem reported at its start. */
  private numberOrDuration(): void {
    const token = scanNumberToken(this.input, this.start, this.options.dialect ?? 'v3');
    this.pos = token.end;
    const text = this.input.slice(this.start, this.pos);
    if (token.kind === 'bad') this.fail(`bad number or duration syntax: ${goQuote(text)}`);
    if (token.kind === 'number' || this.options.readsDurations === false) return;
    try {
      parseDuration(text);
    } catch (error) {
      if (error instanceof DurationParseError) this.fail(error.message);
      throw error;
    }
  }

  /** A quoted or raw string, its opening quote just read. */
  private string(): void {
    const token = scanStringToken(this.input, this.start);
    if (token.problem !== undefined) this.fail(token.problem);
    this.pos = token.end;
  }
}
