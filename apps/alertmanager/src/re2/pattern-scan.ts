import { GoOnlyErrors } from './go-only-errors';
import {
  ClassCost,
  codePointLength,
  escapeEnd,
  isLoneSurrogateAt,
  loneSurrogateIndex,
  unicodeClassAt,
} from './pattern-tokens';
import type { PatternEdit } from './pattern-edits';
import type { RegexpSyntaxError } from './regexp-syntax-error';

/** The first construct Go refuses that re2js may accept. */
export interface GoOnlyError {
  readonly error: RegexpSyntaxError;
  /**
   * The text before the construct with its open class and groups closed. Go parses left to
   * right, so a syntax error in it (which re2js reports alike) comes first in Go too.
   */
  readonly before: string;
  /** The estimated size of {@link before}, to keep checking it bounded. */
  readonly beforeCost: number;
}

/** What one linear pass over a pattern learns before re2js sees it. */
export interface PatternScan {
  /** The capture groups' names by number; index 0 (the whole match) and unnamed groups are undefined. */
  readonly groupNames: readonly (string | undefined)[];
  /** What to change before re2js parses the pattern (see `compileEdited`), in order. */
  readonly edits: readonly PatternEdit[];
  /** The first error Go reports and re2js may not; the scan stops there. */
  readonly goOnlyError: GoOnlyError | undefined;
  /** Whether a counted repetition breaks Go's limits, so that re2js refuses it while parsing. */
  readonly badRepeatCount: boolean;
  /**
   * The size of the compiled program as Go's parser estimates it (`calcSize`), with character
   * classes weighed by how many ranges they hold, as re2js's compile time and memory grow with them.
   */
  readonly cost: number;
}

/** An operand of a repetition: its cost and the largest product of repeat counts inside it. */
interface Atom {
  readonly cost: number;
  readonly product: number;
}

/** An open group: its finished branches and the branch being read, whose last atom is `last`. */
interface Frame {
  readonly capture: boolean;
  branchesCost: number;
  branches: number;
  concat: number;
  /** The largest product of counts in the finished branches and the atoms before `last`. */
  product: number;
  last: Atom | undefined;
}

/** Go's limit on a single count and on the product of nested counts. */
const MAX_REPEAT = 1000;
// Sizes only grow by adding and by counts of at most 1000: cap them to stay exact integers.
const COST_CAP = 2 ** 40;

/**
 * Reads a Go RE2 pattern once, left to right, the way Go's parser tokenises it, without
 * building it: group names, where Go would refuse what re2js accepts, and a size estimate that
 * bounds what compiling it costs. It never throws: on malformed syntax it keeps going, and
 * re2js reports the error when it parses the pattern.
 */
export function scanPattern(src: string): PatternScan {
  return new PatternScanner(src).scan();
}

class PatternScanner {
  private pos = 0;
  private readonly frames: Frame[] = [newFrame(false)];
  private readonly groupNames: (string | undefined)[] = [undefined];
  private readonly seenNames = new Set<string>();
  private readonly edits: PatternEdit[] = [];
  private noPosixCloseFrom = Infinity;
  private readonly errors: GoOnlyErrors;
  private badRepeatCount = false;
  private lastWasRepeat = false;

  constructor(private readonly src: string) {
    this.errors = new GoOnlyErrors(src);
  }

  scan(): PatternScan {
    while (this.pos < this.src.length && !this.errors.found) this.step();
    const found = this.errors.found;
    const cost = this.totalCost();
    return {
      groupNames: this.groupNames,
      edits: this.edits,
      goOnlyError: found && {
        error: found.error,
        before: found.before + ')'.repeat(this.frames.length - 1),
        beforeCost: cost,
      },
      badRepeatCount: this.badRepeatCount,
      cost,
    };
  }

  private get frame(): Frame {
    return this.frames[this.frames.length - 1];
  }

  private step(): void {
    const c = this.src[this.pos];
    let repeat = false;
    if (c === '(') this.openGroup();
    else if (c === ')') this.closeGroup();
    else if (c === '|') this.endBranch();
    else if (c === '[') this.atom(this.scanClass(), 1);
    else if (c === '*') repeat = this.repeat(1, 0, -1, false);
    else if (c === '+') repeat = this.repeat(1, 1, -1, false);
    else if (c === '?') repeat = this.repeat(1, 0, 1, false);
    else if (c === '{') repeat = this.countedRepeat();
    else if (c === '\\') this.escape();
    else {
      if (isLoneSurrogateAt(this.src, this.pos)) {
        this.errors.invalidUtf8(this.pos, this.src.slice(this.pos));
      }
      this.pos += codePointLength(this.src, this.pos);
      this.atom(1, 1);
    }
    this.lastWasRepeat = repeat;
  }

  private atom(cost: number, product: number): void {
    const f = this.frame;
    if (f.last) f.product = Math.max(f.product, f.last.product);
    f.last = { cost, product };
    f.concat = Math.min(COST_CAP, f.concat + cost);
  }

  private escape(): void {
    const next = this.src[this.pos + 1];
    if (next === 'Q') return this.quoted();
    if (next === 'p' || next === 'P') {
      this.pos = unicodeClassAt(this.src, this.pos, this.errors);
      return this.atom(new ClassCost().addUnicode().cost, 1);
    }
    if (isLoneSurrogateAt(this.src, this.pos + 1)) {
      this.errors.invalidUtf8(this.pos, this.src.slice(this.pos + 1));
    }
    this.pos = escapeEnd(this.src, this.pos);
    this.atom(1, 1);
  }

  /** `\Q...\E`: literal text up to `\E` or the end. */
  private quoted(): void {
    const close = this.src.indexOf('\\E', this.pos + 2);
    const end = close < 0 ? this.src.length : close;
    for (let i = this.pos + 2; i < end; i++) {
      // Cut before `\Q`: a cut inside would turn the closing parentheses into literals.
      if (isLoneSurrogateAt(this.src, i)) {
        return this.errors.invalidUtf8(this.pos, this.src.slice(i, end));
      }
      this.atom(1, 1);
    }
    this.pos = close < 0 ? end : close + 2;
  }

  /** A bracket expression, as Go's `parseClass` reads it; returns its cost. */
  private scanClass(): number {
    const start = this.pos;
    const cost = new ClassCost();
    let i = start + 1;
    if (this.src[i] === '^') i++;
    let first = true;
    while (i < this.src.length && (this.src[i] !== ']' || first) && !this.errors.found) {
      first = false;
      this.errors.enterClass(start, cost.items > 0);
      const c = this.src[i];
      const next = this.src[i + 1];
      const posixEnd = c === '[' && next === ':' ? this.posixClassEnd(i) : -1;
      if (posixEnd >= 0) {
        i = posixEnd + 2;
        cost.addPerl();
      } else if (c === '\\' && (next === 'p' || next === 'P')) {
        i = unicodeClassAt(this.src, i, this.errors);
        cost.addUnicode();
      } else if (c === '\\' && next !== undefined && 'dDsSwW'.includes(next)) {
        i += 2;
        cost.addPerl();
      } else {
        i = this.classChar(i);
        if (this.src[i] === '-' && i + 1 < this.src.length && this.src[i + 1] !== ']') {
          i = this.classChar(i + 1);
        }
        cost.addRange();
      }
    }
    this.errors.leaveClass();
    this.pos = Math.min(i + 1, this.src.length);
    return cost.cost;
  }

  /**
   * Where `[:` at `i` ends as a POSIX class (`[:alpha:]`): at the next `:]`, however far. With
   * none, it is a literal `[`; re2js would search again at every such `[:`, so it gets `\[`.
   */
  private posixClassEnd(i: number): number {
    const close = i + 2 < this.noPosixCloseFrom ? this.src.indexOf(':]', i + 2) : -1;
    if (close >= 0) return close;
    this.noPosixCloseFrom = Math.min(this.noPosixCloseFrom, i + 2);
    this.edits.push({ start: i, end: i + 1, text: '\\[' });
    return -1;
  }

  private classChar(i: number): number {
    const escaped = this.src[i] === '\\';
    const at = escaped ? i + 1 : i;
    if (isLoneSurrogateAt(this.src, at)) this.errors.invalidUtf8(i, this.src.slice(at));
    return escaped ? escapeEnd(this.src, i) : i + codePointLength(this.src, i);
  }

  /** `(`, `(?:`, `(?flags:`, `(?flags)`, `(?P<name>` and `(?<name>`, as Go's `parsePerlFlags`. */
  private openGroup(): void {
    const rest = this.src.length - this.pos;
    if (this.src[this.pos + 1] !== '?') return this.pushGroup(1, undefined, true);
    const named =
      (rest > 4 && this.src.startsWith('(?P<', this.pos)) ||
      (rest > 3 && this.src[this.pos + 2] === '<');
    if (named) return this.namedGroup();
    let i = this.pos + 2;
    while (i < this.src.length && 'imsU-'.includes(this.src[i])) i++;
    if (isLoneSurrogateAt(this.src, i)) this.errors.invalidUtf8(this.pos, this.src.slice(i));
    if (this.src[i] === ':') return this.pushGroup(i + 1 - this.pos, undefined, false);
    // `(?flags)` changes flags without a group; anything else is an error re2js reports.
    this.pos = i + 1;
  }

  private namedGroup(): void {
    const close = this.src.indexOf('>', this.pos);
    if (close < 0) {
      const rest = this.src.slice(this.pos);
      if (loneSurrogateIndex(rest) >= 0) this.errors.invalidUtf8(this.pos, rest);
      this.pos = this.src.length;
      return;
    }
    const name = this.src.slice(this.pos + (this.src[this.pos + 2] === 'P' ? 4 : 3), close);
    if (loneSurrogateIndex(name) >= 0) return this.errors.invalidUtf8(this.pos, name);
    // Go lets groups share a name; re2js refuses it, so later ones lose theirs (numbers stay).
    if (this.seenNames.has(name)) this.edits.push({ start: this.pos, end: close + 1, text: '(' });
    this.seenNames.add(name);
    this.pushGroup(close + 1 - this.pos, name, true);
  }

  private pushGroup(length: number, name: string | undefined, capture: boolean): void {
    if (capture) this.groupNames.push(name);
    this.frames.push(newFrame(capture));
    this.pos += length;
  }

  private closeGroup(): void {
    this.pos++;
    if (this.frames.length === 1) return;
    const group = this.frames.pop() as Frame;
    const body = branchCost(group);
    this.atom(group.capture ? 2 + body : body, frameProduct(group));
  }

  private endBranch(): void {
    this.pos++;
    const f = this.frame;
    f.branchesCost = Math.min(COST_CAP, f.branchesCost + Math.max(1, f.concat));
    f.branches++;
    f.product = frameProduct(f);
    f.concat = 0;
    f.last = undefined;
  }

  /** `{n}`, `{n,}`, `{n,m}` as Go's `parseRepeat` reads them; anything else makes `{` a literal. */
  private countedRepeat(): boolean {
    const start = this.pos;
    const min = this.number(start + 1);
    let max = min;
    if (min && this.src[min.end] === ',') {
      max =
        this.src[min.end + 1] === '}' ? { value: -1, end: min.end + 1 } : this.number(min.end + 1);
    }
    if (!min || !max || this.src[max.end] !== '}') {
      this.pos++;
      this.atom(1, 1);
      return false;
    }
    const length = max.end + 1 - start;
    if (
      min.value > MAX_REPEAT ||
      max.value > MAX_REPEAT ||
      (max.value >= 0 && min.value > max.value)
    ) {
      this.badRepeatCount = true;
      this.pos += length;
      return true;
    }
    return this.repeat(length, min.value, max.value, true);
  }

  /** Decimal digits at `i` as Go's `parseInt` reads them: none, or a leading zero, is no number. */
  private number(i: number): { value: number; end: number } | undefined {
    let end = i;
    while (end < this.src.length && this.src[end] >= '0' && this.src[end] <= '9') end++;
    if (end === i || (this.src[i] === '0' && end > i + 1)) return undefined;
    // Go turns too many digits into an invalid count; any value over the limit does as well.
    return { value: end - i > 9 ? MAX_REPEAT + 1 : Number(this.src.slice(i, end)), end };
  }

  /**
   * Applies a repetition of `length` characters (and a following `?`) to the last atom, with
   * Go's size formula (`calcSize`) and its limit on nested counts (`repeatIsValid`).
   */
  private repeat(length: number, min: number, max: number, counted: boolean): boolean {
    this.pos += length;
    if (this.src[this.pos] === '?') this.pos++;
    const f = this.frame;
    const sub = f.last;
    // Without an operand, or right after another repetition, re2js refuses the pattern.
    if (!sub || this.lastWasRepeat) return true;
    let cost = (min === 0 && max === -1 ? 2 : 1) + sub.cost;
    let product = sub.product;
    if (counted) {
      const count = max === -1 ? min : max;
      product = count === 0 ? 0 : count * Math.max(sub.product, 1);
      if ((min >= 2 || max >= 2) && product > MAX_REPEAT) this.badRepeatCount = true;
      if (max >= 0) cost = Math.max(1, max * sub.cost + (max - min));
      else if (min > 0) cost = 1 + min * sub.cost;
    }
    f.concat = Math.min(COST_CAP, f.concat - sub.cost + cost);
    f.last = { cost, product };
    return true;
  }

  /** The size of the whole pattern, closing the groups left open. */
  private totalCost(): number {
    let cost = 0;
    for (let i = this.frames.length - 1; i >= 0; i--) {
      const f = this.frames[i];
      cost = branchCost({ ...f, concat: Math.min(COST_CAP, f.concat + cost) });
    }
    return cost;
  }
}

function newFrame(capture: boolean): Frame {
  return { capture, branchesCost: 0, branches: 0, concat: 0, product: 0, last: undefined };
}

function frameProduct(f: Frame): number {
  return Math.max(f.product, f.last?.product ?? 0);
}

/** Go's size of an alternation: its branches (an empty one counts 1) and one per extra branch. */
function branchCost(f: Frame): number {
  if (f.branches === 0) return Math.max(1, f.concat);
  return Math.min(COST_CAP, f.branchesCost + Math.max(1, f.concat) + f.branches);
}
