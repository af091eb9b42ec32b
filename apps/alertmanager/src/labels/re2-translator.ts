import { caseVariants, foldRanges, perlClass, rangesToClass } from './re2-char-class';
import { translateClass, translateUnicodeClass } from './re2-class-parser';
import { decodeEscape } from './re2-escape';
import { RegexpSyntaxError } from './regexp-syntax-error';

interface Flags {
  i: boolean;
  m: boolean;
  s: boolean;
  U: boolean;
}

interface OpenGroup {
  readonly saved: Flags;
  readonly outStart: number;
  product: number;
}

interface Atom {
  readonly outStart: number;
  readonly assertion: boolean;
  readonly product: number;
}

const MAX_REPEAT = 1000;
const SYNTAX_CHARS = '^$\\.*+?()[]{}|/';

/**
 * Translates Go RE2 syntax to an equivalent JavaScript pattern for the `u` flag. Flags such as
 * `(?i)`, `(?s)`, `(?m)` and `(?U)` are scoped like in Go, so instead of JavaScript flags the
 * output spells them out: case variants as classes, `.` as `[^\n]` or `[\s\S]`, and multi-line
 * anchors as lookarounds. Syntax errors are thrown as {@link RegexpSyntaxError} with Go's texts.
 */
export function translateRe2(src: string): string {
  return new Re2Translator(src).translate();
}

class Re2Translator {
  private pos = 0;
  private out = '';
  private flags: Flags = { i: false, m: false, s: false, U: false };
  private readonly groups: OpenGroup[] = [];
  private atom: Atom | undefined;
  private lastRepeatStart = -1;

  constructor(private readonly src: string) {}

  translate(): string {
    while (this.pos < this.src.length) {
      const repeatStart = this.pos;
      const repeated = this.step();
      this.lastRepeatStart = repeated ? repeatStart : -1;
    }
    if (this.groups.length > 0) throw new RegexpSyntaxError('missing closing )', this.src);
    return this.out;
  }

  /** Consumes one token; returns true when it was a repetition operator. */
  private step(): boolean {
    const c = this.src[this.pos];
    switch (c) {
      case '(':
        this.openGroup();
        return false;
      case ')':
        this.closeGroup();
        return false;
      case '|':
        this.pos++;
        this.out += '|';
        this.atom = undefined;
        return false;
      case '^':
        this.pos++;
        this.emit(this.flags.m ? '(?<![^\\n])' : '^', true);
        return false;
      case '$':
        this.pos++;
        this.emit(this.flags.m ? '(?![^\\n])' : '$', true);
        return false;
      case '.':
        this.pos++;
        this.emit(this.flags.s ? '[\\s\\S]' : '[^\\n]');
        return false;
      case '[': {
        const cls = translateClass(this.src, this.pos, this.flags.i);
        this.pos = cls.end;
        this.emit(cls.js);
        return false;
      }
      case '*':
      case '+':
      case '?':
        this.repeat(c, 0, 0, this.pos + 1);
        return true;
      case '{':
        return this.countedRepeat();
      case '\\':
        this.escape();
        return false;
      default: {
        const codePoint = this.src.codePointAt(this.pos) as number;
        this.pos += String.fromCodePoint(codePoint).length;
        this.literal(codePoint);
        return false;
      }
    }
  }

  private emit(js: string, assertion = false, product = 0): void {
    this.atom = { outStart: this.out.length, assertion, product };
    this.out += js;
    const group = this.groups[this.groups.length - 1];
    if (group) group.product = Math.max(group.product, product);
  }

  private literal(codePoint: number): void {
    if (this.flags.i) {
      const variants = caseVariants(codePoint);
      if (variants.length > 1) return this.emit(rangesToClass(variants.map((v) => [v, v])));
    }
    const ch = String.fromCodePoint(codePoint);
    if (SYNTAX_CHARS.includes(ch)) return this.emit(`\\${ch}`);
    this.emit(/^[\x20-\x7e]$/.test(ch) ? ch : `\\u{${codePoint.toString(16)}}`);
  }

  private escape(): void {
    const next = this.src[this.pos + 1];
    const anchors: Record<string, [string, boolean]> = {
      A: ['^', true],
      z: ['$', true],
      b: ['\\b', true],
      B: ['\\B', true],
    };
    if (next !== undefined && next in anchors) {
      this.pos += 2;
      return this.emit(...anchors[next]);
    }
    if (next === 'C') throw new RegexpSyntaxError('invalid escape sequence', '\\C');
    if (next === 'Q') return this.quoted();
    if (next === 'p' || next === 'P') {
      const unicode = translateUnicodeClass(this.src, this.pos);
      this.pos = unicode.end;
      return this.emit(unicode.js);
    }
    const perl = perlClass(next ?? '');
    if (perl) {
      this.pos += 2;
      return this.emit(rangesToClass(this.flags.i ? foldRanges(perl) : perl));
    }
    const decoded = decodeEscape(this.src, this.pos);
    this.pos = decoded.end;
    this.literal(decoded.codePoint);
  }

  /** `\Q...\E`: everything up to `\E` (or the end) is literal text. */
  private quoted(): void {
    const close = this.src.indexOf('\\E', this.pos + 2);
    const text = this.src.slice(this.pos + 2, close < 0 ? this.src.length : close);
    this.pos = close < 0 ? this.src.length : close + 2;
    for (const ch of text) this.literal(ch.codePointAt(0) as number);
  }

  private openGroup(): void {
    const rest = this.src.slice(this.pos);
    if (!rest.startsWith('(?')) return this.pushGroup(1, '(');
    const named = /^\(\?P?</.exec(rest);
    if (named) {
      const close = rest.indexOf('>');
      if (close < 0) throw new RegexpSyntaxError('invalid named capture', rest);
      const name = rest.slice(named[0].length, close);
      if (!/^[A-Za-z0-9_]+$/.test(name)) {
        throw new RegexpSyntaxError('invalid named capture', rest.slice(0, close + 1));
      }
      // Names do not change what matches, so the group becomes a plain capture in JavaScript.
      return this.pushGroup(close + 1, '(');
    }
    this.perlFlags(rest);
  }

  /** Parses `(?flags)`, `(?flags:` and `(?:` following Go's rules for `-` and empty flag sets. */
  private perlFlags(rest: string): void {
    const flags = { ...this.flags };
    let negate = false;
    let sawFlag = false;
    for (let i = 2; i < rest.length; i++) {
      const c = rest[i];
      if (c === 'i' || c === 'm' || c === 's' || c === 'U') {
        flags[c] = !negate;
        sawFlag = true;
      } else if (c === '-' && !negate) {
        negate = true;
        sawFlag = false;
      } else if ((c === ':' || c === ')') && (!negate || sawFlag)) {
        if (c === ':') this.pushGroup(i + 1, '(?:');
        else this.pos += i + 1;
        this.flags = flags;
        return;
      } else {
        throw new RegexpSyntaxError('invalid or unsupported Perl syntax', rest.slice(0, i + 1));
      }
    }
    throw new RegexpSyntaxError('invalid or unsupported Perl syntax', rest);
  }

  private pushGroup(length: number, js: string): void {
    this.groups.push({ saved: { ...this.flags }, outStart: this.out.length, product: 0 });
    this.pos += length;
    this.out += js;
    this.atom = undefined;
  }

  private closeGroup(): void {
    const group = this.groups.pop();
    if (!group) throw new RegexpSyntaxError('unexpected )', this.src);
    this.pos++;
    this.out += ')';
    this.flags = group.saved;
    this.atom = { outStart: group.outStart, assertion: false, product: group.product };
    const parent = this.groups[this.groups.length - 1];
    if (parent) parent.product = Math.max(parent.product, group.product);
  }

  private countedRepeat(): boolean {
    const m = /^\{(0|[1-9][0-9]*)(,(0|[1-9][0-9]*)?)?\}/.exec(this.src.slice(this.pos));
    if (!m) {
      this.pos++;
      this.literal(0x7b);
      return false;
    }
    const min = Number(m[1]);
    const max = m[2] === undefined ? min : m[3] === undefined ? -1 : Number(m[3]);
    if (min > MAX_REPEAT || max > MAX_REPEAT || (max >= 0 && min > max)) {
      throw new RegexpSyntaxError('invalid repeat count', m[0]);
    }
    this.repeat(m[0], min, max, this.pos + m[0].length);
    return true;
  }

  /** Applies a repetition operator ending at `end` (before any `?`) to the previous atom. */
  private repeat(op: string, min: number, max: number, end: number): void {
    const start = this.pos;
    let lazy = this.src[end] === '?';
    if (lazy) end++;
    if (this.lastRepeatStart >= 0) {
      throw new RegexpSyntaxError(
        'invalid nested repetition operator',
        this.src.slice(this.lastRepeatStart, end),
      );
    }
    const atom = this.atom;
    if (!atom) {
      throw new RegexpSyntaxError(
        'missing argument to repetition operator',
        this.src.slice(start, end),
      );
    }
    const counted = op.startsWith('{');
    const times = max >= 0 ? max : min;
    const product = counted && times > 0 ? times * Math.max(atom.product, 1) : atom.product;
    if (counted && (min >= 2 || max >= 2) && max !== 0 && product > MAX_REPEAT) {
      throw new RegexpSyntaxError('invalid repeat count', this.src.slice(start, end));
    }
    if (this.flags.U) lazy = !lazy;
    // JavaScript cannot repeat an assertion directly, while Go can; a group makes it legal.
    const body = this.out.slice(atom.outStart);
    this.out = this.out.slice(0, atom.outStart);
    this.emit(`${atom.assertion ? `(?:${body})` : body}${op}${lazy ? '?' : ''}`, false, product);
    this.pos = end;
  }
}
