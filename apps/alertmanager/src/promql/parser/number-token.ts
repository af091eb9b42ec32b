import type { PromqlDialect } from './dialect';

/** A number or duration token as upstream's lexer reads it. */
export interface NumberToken {
  /** Just past the token; where the lexer stopped when it refuses one. */
  readonly end: number;
  /** `bad`: upstream's `bad number or duration syntax`, the text read so far quoted. */
  readonly kind: 'number' | 'duration' | 'bad';
}

const isAlphaNumeric = (c: string) => /^[a-zA-Z0-9_]$/.test(c);

/**
 * Upstream's `lexNumberOrDuration` from `at`: a number (`.5` then `.`, `1e+5`, `0x1f`), else a
 * duration (`5m`, `1h30m`, `.5m`; units are checked by whoever reads it). 2.42's lexer knows no
 * `_` separators (`1_000` is refused at `1`).
 */
export function scanNumberToken(input: string, at: number, dialect: PromqlDialect): NumberToken {
  const scan = new NumberScan(input, at);
  if (dialect === 'v2.42' ? scan.numberV2() : scan.numberV3()) {
    return { end: scan.pos, kind: 'number' };
  }
  return scan.remainingDuration()
    ? { end: scan.pos, kind: 'duration' }
    : { end: scan.pos, kind: 'bad' };
}

class NumberScan {
  constructor(
    private readonly input: string,
    public pos: number,
  ) {}

  private peek(): string {
    return this.input[this.pos] ?? '';
  }

  private is(valid: string): boolean {
    const c = this.peek();
    return c !== '' && valid.includes(c);
  }

  private accept(valid: string): boolean {
    if (!this.is(valid)) return false;
    this.pos++;
    return true;
  }

  /** 2.42's number scan: digits (hex after `0x`), a dot and more digits, an exponent. */
  numberV2(): boolean {
    let digits = '0123456789';
    if (this.accept('0') && this.accept('xX')) digits = '0123456789abcdefABCDEF';
    while (this.accept(digits));
    if (this.accept('.')) while (this.accept(digits));
    if (this.accept('eE')) {
      this.accept('+-');
      while (this.accept('0123456789'));
    }
    return !isAlphaNumeric(this.peek());
  }

  /** 3.x's number scan: digits, one dot, one exponent, underscores between digits, hex. */
  numberV3(): boolean {
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

  /** Upstream's `acceptRemainingDuration`: units after the digits, then no letter or digit. */
  remainingDuration(): boolean {
    if (!this.accept('smhdwy')) return false;
    this.accept('s');
    while (this.accept('0123456789')) {
      while (this.accept('0123456789'));
      if (!this.accept('smhdw')) return false;
      this.accept('s');
    }
    // Upstream reads the character after it, and steps back over it only when the duration ends.
    if (!isAlphaNumeric(this.peek())) return true;
    this.pos++;
    return false;
  }
}
