/** Strings numbered in the order they were first seen, each held once. */
export class StringTable {
  readonly strings: string[] = [];
  private readonly numbers = new Map<string, number>();

  /** The number of `text`, given it now when it has none. */
  number(text: string): number {
    let n = this.numbers.get(text);
    if (n === undefined) {
      n = this.strings.length;
      this.strings.push(text);
      this.numbers.set(text, n);
    }
    return n;
  }

  /** The number of `text`, if it has one. */
  find(text: string): number | undefined {
    return this.numbers.get(text);
  }
}
