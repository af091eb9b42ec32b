import { RegexpSyntaxError } from './regexp-syntax-error';

/** The first Go-only error of a scan and the text before it. */
export interface FoundError {
  readonly error: RegexpSyntaxError;
  /** The pattern before the erroneous construct, an open class closed (but not open groups). */
  readonly before: string;
}

/**
 * Collects, during a scan, the first construct Go refuses but re2js may accept: a Unicode class
 * name Go does not know, and a lone surrogate, the JavaScript counterpart of the invalid UTF-8
 * Go refuses with `invalid UTF-8`. Each records where the pattern has to be cut to check what
 * comes before it.
 */
export class GoOnlyErrors {
  found: FoundError | undefined;
  private classStart = -1;
  private classHasItems = false;

  constructor(private readonly src: string) {}

  /** The scan reads an item of the class opened at `start`; `hasItems` if earlier items exist. */
  enterClass(start: number, hasItems: boolean): void {
    this.classStart = start;
    this.classHasItems = hasItems;
  }

  leaveClass(): void {
    this.classStart = -1;
  }

  /** A lone surrogate in the construct starting at `cut`; `expr` is what Go's error quotes. */
  invalidUtf8(cut: number, expr: string): void {
    this.record(cut, new RegexpSyntaxError('invalid UTF-8', expr));
  }

  /** A `\p` escape at `cut` naming a class Go does not have. */
  badClassName(cut: number, sequence: string): void {
    this.record(cut, new RegexpSyntaxError('invalid character class range', sequence));
  }

  private record(cut: number, error: RegexpSyntaxError): void {
    if (this.found) return;
    let before = this.src.slice(0, cut);
    // Inside a class, keep the items before (closed) unless there are none: `[` alone would not parse.
    if (this.classStart >= 0) {
      before = this.classHasItems ? `${before}]` : this.src.slice(0, this.classStart);
    }
    this.found = { error, before };
  }
}
