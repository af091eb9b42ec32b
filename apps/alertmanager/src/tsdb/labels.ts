import { goQuote } from '../labels/go-quote';
import { compareGoStrings } from '../labels/label-set-format';
import { xxhash64 } from './xxhash64';

export const METRIC_NAME = '__name__';

/** The names of the last set `Labels.ofStored` took as they were. */
let lastStoredNames: readonly string[] = [];

/**
 * A series' label set: names sorted in Go's byte order, immutable, with a string key that is
 * equal for equal sets (so sets can key maps). Operations return new sets.
 */
export class Labels {
  static readonly EMPTY = new Labels([], []);

  private cachedKey: string | undefined;
  /** `contentHash` once computed; -1 before. */
  private cachedHash = -1;
  /** Whether the set's strings are a store's own (`ofKept`). */
  private keptByStore = false;

  private constructor(
    readonly names: readonly string[],
    readonly values: readonly string[],
  ) {}

  /** A set from name/value pairs in any order; empty values are dropped, the last duplicate wins. */
  static from(pairs: Iterable<readonly [string, string]>): Labels {
    const map = new Map<string, string>();
    for (const [name, value] of pairs) map.set(name, value);
    return Labels.fromMap(map);
  }

  /**
   * A set from names already in Go's byte order, each once, with no empty value: a set another
   * `Labels` held, as a store hands its series to a query thread. Not checked.
   */
  static ofSorted(names: readonly string[], values: readonly string[]): Labels {
    return names.length === 0 ? Labels.EMPTY : new Labels(names, values);
  }

  /**
   * A set read back from the store's own records, which hold label sets as `Labels` kept them:
   * taken as they are when they are (names in Go's order, each once, no empty value), the names
   * shared with the set read before when they are the same strings (series of one family follow
   * one another), and built as `from` builds them otherwise.
   */
  static ofStored(names: string[], values: string[]): Labels {
    if (names.length === 0) return Labels.EMPTY;
    for (let i = 0; i < names.length; i++) {
      if (values[i] === '' || (i > 0 && compareGoStrings(names[i - 1], names[i]) >= 0)) {
        return Labels.from(names.map((n, j) => [n, values[j]]));
      }
    }
    const last = lastStoredNames;
    if (last.length === names.length && last.every((n, i) => n === names[i])) {
      return new Labels(last, values);
    }
    lastStoredNames = names;
    return new Labels(names, values);
  }

  /**
   * A set whose strings a store keeps (its own copies, shared between its series; see
   * `LabelStrings`), its names already in Go's order, each once, with no empty value. Not checked.
   */
  static ofKept(names: readonly string[], values: readonly string[]): Labels {
    if (names.length === 0) return Labels.EMPTY;
    const labels = new Labels(names, values);
    labels.keptByStore = true;
    return labels;
  }

  /** Whether the set's strings are a store's own (made by `ofKept`). */
  get isKept(): boolean {
    return this.keptByStore || this.names.length === 0;
  }

  static fromRecord(record: Readonly<Record<string, string>>): Labels {
    return Labels.from(Object.entries(record));
  }

  private static fromMap(map: Map<string, string>): Labels {
    // `filter` leaves room to grow; `slice` keeps a series' names at their size.
    const names = [...map.keys()]
      .filter((n) => map.get(n) !== '')
      .sort(compareGoStrings)
      .slice();
    if (names.length === 0) return Labels.EMPTY;
    return new Labels(
      names,
      names.map((n) => map.get(n) as string),
    );
  }

  get size(): number {
    return this.names.length;
  }

  /** The value of `name`, or '' when the set has no such label. */
  get(name: string): string {
    const i = this.indexOf(name);
    return i < 0 ? '' : this.values[i];
  }

  has(name: string): boolean {
    return this.indexOf(name) >= 0;
  }

  /** Equal for equal sets: the key maps and dedupes use. */
  get key(): string {
    if (this.cachedKey === undefined) {
      // Joined, not concatenated: `+=` leaves a tree of string pieces (about 500 bytes for a
      // set of six) that a map keyed by it keeps as it is; `join` makes one flat string.
      const n = this.names.length;
      const parts = new Array<string>(2 * n + 1);
      for (let i = 0; i < n; i++) {
        parts[2 * i] = this.names[i];
        parts[2 * i + 1] = this.values[i];
      }
      parts[2 * n] = '';
      this.cachedKey = parts.join('\xff');
    }
    return this.cachedKey;
  }

  /**
   * A 31-bit hash of the set's names and values (FNV-1a over their UTF-16 code units), equal for
   * equal sets: what `LabelSetMap` finds sets by without building a `key` string for each.
   */
  get contentHash(): number {
    if (this.cachedHash < 0) {
      let h = 0x811c9dc5;
      for (let i = 0; i < this.names.length; i++) {
        h = hashString(h, this.names[i]);
        h = Math.imul(h ^ 0xff, 0x01000193);
        h = hashString(h, this.values[i]);
        h = Math.imul(h ^ 0xfe, 0x01000193);
      }
      this.cachedHash = h >>> 1;
    }
    return this.cachedHash;
  }

  /** Whether `other` holds the same names and values. */
  equals(other: Labels): boolean {
    if (other === this) return true;
    const n = this.names.length;
    if (other.names.length !== n) return false;
    for (let i = 0; i < n; i++) {
      if (this.values[i] !== other.values[i] || this.names[i] !== other.names[i]) return false;
    }
    return true;
  }

  /**
   * Prometheus's `labels.Hash()`: XXH64 of `name\xffvalue\xff...` (0xff as a raw byte), used
   * where upstream's choices depend on it (`limit_ratio`, rule group offsets).
   */
  hash(): bigint {
    const parts: Buffer[] = [];
    const separator = Buffer.from([0xff]);
    for (let i = 0; i < this.names.length; i++) {
      parts.push(
        Buffer.from(this.names[i], 'utf8'),
        separator,
        Buffer.from(this.values[i], 'utf8'),
        separator,
      );
    }
    return xxhash64(Buffer.concat(parts));
  }

  /** A copy with `name` set to `value` (removed when `value` is ''). */
  with(name: string, value: string): Labels {
    const map = this.toMap();
    map.set(name, value);
    return Labels.fromMap(map);
  }

  /** A copy without the given names. */
  without(names: Iterable<string>): Labels {
    const drop = new Set(names);
    if (!this.names.some((n) => drop.has(n))) return this;
    const map = this.toMap();
    for (const name of drop) map.delete(name);
    return Labels.fromMap(map);
  }

  /** A copy with only the given names. */
  keep(names: Iterable<string>): Labels {
    const kept = new Set(names);
    if (this.names.every((n) => kept.has(n))) return this;
    const map = new Map<string, string>();
    this.names.forEach((n, i) => {
      if (kept.has(n)) map.set(n, this.values[i]);
    });
    return Labels.fromMap(map);
  }

  /** Key of the subset named (`on`) or of everything else (`!on`): vector matching signatures. */
  signature(names: readonly string[], on: boolean): string {
    // A few names (`by (le)`, `on (job, instance)`) are looked up in place, more through a set.
    const set = names.length > 8 ? new Set(names) : undefined;
    let key = '';
    for (let i = 0; i < this.names.length; i++) {
      const name = this.names[i];
      if ((set ? set.has(name) : names.includes(name)) === on) {
        key += `${name}\xff${this.values[i]}\xff`;
      }
    }
    return key;
  }

  toMap(): Map<string, string> {
    return new Map(this.names.map((n, i) => [n, this.values[i]]));
  }

  toRecord(): Record<string, string> {
    return Object.fromEntries(this.names.map((n, i) => [n, this.values[i]]));
  }

  /** Prometheus' `labels.Labels.String()`: `{__name__="up", job="x"}`, names unquoted when plain. */
  toString(): string {
    const parts = this.names.map(
      (n, i) => `${/^[a-zA-Z_][a-zA-Z0-9_]*$/.test(n) ? n : goQuote(n)}=${goQuote(this.values[i])}`,
    );
    return `{${parts.join(', ')}}`;
  }

  private indexOf(name: string): number {
    // Label sets are small: a linear scan beats a binary search with Go-order comparisons.
    return this.names.indexOf(name);
  }
}

/** `h` advanced by FNV-1a over the UTF-16 code units of `text`. */
function hashString(h: number, text: string): number {
  let out = h;
  for (let i = 0; i < text.length; i++) out = Math.imul(out ^ text.charCodeAt(i), 0x01000193);
  return out;
}

/** Prometheus' `labels.Compare`: by name, then value, pair by pair; a prefix sorts first. */
export function compareLabels(a: Labels, b: Labels): number {
  const n = Math.min(a.size, b.size);
  for (let i = 0; i < n; i++) {
    if (a.names[i] !== b.names[i]) return compareGoStrings(a.names[i], b.names[i]);
    if (a.values[i] !== b.values[i]) return compareGoStrings(a.values[i], b.values[i]);
  }
  return a.size - b.size;
}
