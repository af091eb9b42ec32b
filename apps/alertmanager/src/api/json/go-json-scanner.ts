/** Go's `encoding/json` limit on nesting; deeper input is an error, never a deep recursion. */
const MAX_DEPTH = 10_000;

// Parse states of an open container, as Go's scanner names them.
const OBJECT_KEY = 0;
const OBJECT_VALUE = 1;
const ARRAY_VALUE = 2;

// Scanner states: what the next byte may be.
const enum S {
  BeginValue,
  BeginValueOrEmpty,
  BeginStringOrEmpty,
  BeginString,
  InString,
  InStringEsc,
  InStringEscU,
  Neg,
  One,
  Zero,
  Dot,
  Dot0,
  E,
  ESign,
  E0,
  Literal,
  EndValue,
  Done,
}

const HEX = /^[0-9a-fA-F]$/;
const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;

/** What scanning found: where the first value ends, Go's error, and a top-level array's items. */
export interface JsonScan {
  /** Byte offset just after the first value (or where scanning stopped on an error). */
  end: number;
  /** Go's message for the first syntax error (`unexpected EOF` when the input ends early). */
  error?: string;
  /** The first non-space byte: `[`, `{`, `"`, `t`, `f`, `n`, or a number's first byte. */
  first?: number;
  /** `[start, end)` byte ranges of the elements of a top-level array. */
  elements: Array<[number, number]>;
}

/**
 * Go's `encoding/json` scanner over bytes, as its `Decoder` runs it on a request body: it reads
 * the first JSON value and reports the first syntax error in Go's words, byte for byte (Go
 * quotes the offending byte, not a decoded character). It is an explicit state machine with a
 * stack rather than a recursive parser, so it can stop after any number of bytes and resume
 * (long bodies are scanned in slices between other work), and deep nesting costs no call stack.
 */
export class GoJsonScanner {
  private i = 0;
  private state = S.BeginValue;
  private readonly stack: number[] = [];
  private literal = '';
  private literalAt = 0;
  private hexLeft = 0;
  private elementStart = -1;
  private readonly result: JsonScan = { end: 0, elements: [] };

  constructor(private readonly bytes: Uint8Array) {}

  /** Whether scanning has finished (the value ended, or an error was found). */
  get done(): boolean {
    return this.state === S.Done;
  }

  /** Scans at most `budget` more bytes; returns the result once done, else undefined. */
  scan(budget = Infinity): JsonScan | undefined {
    const bytes = this.bytes;
    const stop = Math.min(bytes.length, this.i + budget);
    while (this.i < stop && !this.done) {
      const c = bytes[this.i];
      if (this.state === S.InString && c !== 0x22 && c !== 0x5c && c >= 0x20) {
        this.i++;
        continue;
      }
      this.step(c);
      if (!this.done) this.i++;
    }
    if (!this.done && this.i >= bytes.length) this.endOfInput();
    return this.done ? this.result : undefined;
  }

  // Go's Decoder steps a space at the end of its input: that completes a top-level value that
  // needs no closing byte (a number, or one whose last byte was read); anything else is cut short.
  private endOfInput(): void {
    const complete = [S.One, S.Zero, S.Dot0, S.E0, S.EndValue].includes(this.state);
    if (this.stack.length === 0 && complete) this.finish(this.i);
    else this.fail(undefined, '');
  }

  private finish(end: number): void {
    this.result.end = end;
    this.state = S.Done;
  }

  private fail(c: number | undefined, where: string): void {
    this.result.end = this.i;
    this.result.error =
      c === undefined ? 'unexpected EOF' : `invalid character ${goQuoteByte(c)} ${where}`;
    this.state = S.Done;
  }

  private step(c: number): void {
    switch (this.state) {
      case S.BeginValueOrEmpty:
        if (isSpace(c)) return;
        if (c === 0x5d) return this.endValue(c);
        return this.beginValue(c);
      case S.BeginValue:
        if (isSpace(c)) return;
        return this.beginValue(c);
      case S.BeginStringOrEmpty:
        if (isSpace(c)) return;
        if (c === 0x7d) {
          this.stack[this.stack.length - 1] = OBJECT_VALUE;
          return this.endValue(c);
        }
        return this.beginString(c);
      case S.BeginString:
        if (isSpace(c)) return;
        return this.beginString(c);
      case S.InString:
        if (c === 0x22) this.state = S.EndValue;
        else if (c === 0x5c) this.state = S.InStringEsc;
        else this.fail(c, 'in string literal');
        return;
      case S.InStringEsc:
        if (c === 0x75) {
          this.hexLeft = 4;
          this.state = S.InStringEscU;
        } else if ('bfnrt\\/"'.includes(String.fromCharCode(c))) this.state = S.InString;
        else this.fail(c, 'in string escape code');
        return;
      case S.InStringEscU:
        if (!HEX.test(String.fromCharCode(c))) {
          return this.fail(c, 'in \\u hexadecimal character escape');
        }
        if (--this.hexLeft === 0) this.state = S.InString;
        return;
      default:
        return this.stepNumberOrLiteral(c);
    }
  }

  private stepNumberOrLiteral(c: number): void {
    switch (this.state) {
      case S.Neg:
        if (c === 0x30) this.state = S.Zero;
        else if (isDigit(c)) this.state = S.One;
        else this.fail(c, 'in numeric literal');
        return;
      case S.One:
        if (isDigit(c)) return;
        return this.afterZero(c);
      case S.Zero:
        return this.afterZero(c);
      case S.Dot:
        if (isDigit(c)) this.state = S.Dot0;
        else this.fail(c, 'after decimal point in numeric literal');
        return;
      case S.Dot0:
        if (isDigit(c)) return;
        if (c === 0x65 || c === 0x45) this.state = S.E;
        else this.endValue(c);
        return;
      case S.E:
        if (c === 0x2b || c === 0x2d) {
          this.state = S.ESign;
          return;
        }
        return this.expectExponentDigit(c);
      case S.ESign:
        return this.expectExponentDigit(c);
      case S.E0:
        if (isDigit(c)) return;
        return this.endValue(c);
      case S.Literal: {
        const want = this.literal.charCodeAt(this.literalAt);
        if (c !== want) {
          const expecting = this.literal[this.literalAt];
          return this.fail(c, `in literal ${this.literal} (expecting '${expecting}')`);
        }
        if (++this.literalAt === this.literal.length) this.state = S.EndValue;
        return;
      }
      default:
        return this.endValue(c);
    }
  }

  private afterZero(c: number): void {
    if (c === 0x2e) this.state = S.Dot;
    else if (c === 0x65 || c === 0x45) this.state = S.E;
    else this.endValue(c);
  }

  private expectExponentDigit(c: number): void {
    if (isDigit(c)) this.state = S.E0;
    else this.fail(c, 'in exponent of numeric literal');
  }

  private beginValue(c: number): void {
    if (this.stack.length === 0) this.result.first = c;
    else if (this.stack.length === 1 && this.stack[0] === ARRAY_VALUE) this.elementStart = this.i;
    switch (c) {
      case 0x7b:
        return this.push(c, OBJECT_KEY, S.BeginStringOrEmpty);
      case 0x5b:
        return this.push(c, ARRAY_VALUE, S.BeginValueOrEmpty);
      case 0x22:
        this.state = S.InString;
        return;
      case 0x2d:
        this.state = S.Neg;
        return;
      case 0x30:
        this.state = S.Zero;
        return;
      case 0x74:
      case 0x66:
      case 0x6e:
        this.literal = c === 0x74 ? 'true' : c === 0x66 ? 'false' : 'null';
        this.literalAt = 1;
        this.state = S.Literal;
        return;
      default:
        if (c > 0x30 && c <= 0x39) this.state = S.One;
        else this.fail(c, 'looking for beginning of value');
    }
  }

  private beginString(c: number): void {
    if (c === 0x22) this.state = S.InString;
    else this.fail(c, 'looking for beginning of object key string');
  }

  private push(c: number, parse: number, next: S): void {
    this.stack.push(parse);
    if (this.stack.length > MAX_DEPTH) return this.fail(c, 'exceeded max depth');
    this.state = next;
  }

  /** A value just ended and `c` follows it: what the enclosing container allows there. */
  private endValue(c: number): void {
    const depth = this.stack.length;
    if (depth === 0) return this.finish(this.i);
    if (isSpace(c)) {
      this.state = S.EndValue;
      return;
    }
    const top = this.stack[depth - 1];
    if (top === OBJECT_KEY) {
      if (c !== 0x3a) return this.fail(c, 'after object key');
      this.stack[depth - 1] = OBJECT_VALUE;
      this.state = S.BeginValue;
    } else if (top === OBJECT_VALUE) {
      if (c === 0x2c) {
        this.stack[depth - 1] = OBJECT_KEY;
        this.state = S.BeginString;
      } else if (c === 0x7d) this.pop();
      else this.fail(c, 'after object key:value pair');
    } else {
      if (depth === 1 && this.elementStart !== -1 && (c === 0x2c || c === 0x5d)) {
        this.result.elements.push([this.elementStart, this.i]);
        this.elementStart = -1;
      }
      if (c === 0x2c) this.state = S.BeginValue;
      else if (c === 0x5d) this.pop();
      else this.fail(c, 'after array element');
    }
  }

  private pop(): void {
    this.stack.pop();
    // At the top, the closing bracket is the value's last byte.
    if (this.stack.length === 0) this.finish(this.i + 1);
    else this.state = S.EndValue;
  }
}

/**
 * Go's `quoteChar`: one byte in single quotes. Go converts the byte to a rune, so a byte of a
 * multi-byte UTF-8 sequence prints as its Latin-1 character (0xC3 as `Ã`), and escapes follow
 * `strconv.Quote` (`\x01`, `\u0085`), not JSON.
 */
export function goQuoteByte(c: number): string {
  if (c === 0x27) return `'\\''`;
  if (c === 0x22) return `'"'`;
  const named: Record<number, string> = {
    0x07: '\\a',
    0x08: '\\b',
    0x0c: '\\f',
    0x0a: '\\n',
    0x0d: '\\r',
    0x09: '\\t',
    0x0b: '\\v',
    0x5c: '\\\\',
  };
  if (named[c] !== undefined) return `'${named[c]}'`;
  if (c < 0x20 || c === 0x7f) return `'\\x${c.toString(16).padStart(2, '0')}'`;
  // C1 controls, the no-break space and the soft hyphen are not printable to Go.
  if ((c >= 0x80 && c <= 0xa0) || c === 0xad) return `'\\u00${c.toString(16)}'`;
  return `'${String.fromCharCode(c)}'`;
}
