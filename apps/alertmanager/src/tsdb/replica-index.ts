import { intersectSorted, unionSorted } from './postings';
import { StringTable } from './string-table';
import type { SeriesMatcher } from './queryable';

/** Ids in ascending order, in a typed array that grows. */
class IdList {
  ids = new Int32Array(4);
  length = 0;

  push(id: number): void {
    if (this.length === this.ids.length) {
      const grown = new Int32Array(this.ids.length * 2);
      grown.set(this.ids);
      this.ids = grown;
    }
    this.ids[this.length++] = id;
  }

  view(): Int32Array {
    return this.ids.subarray(0, this.length);
  }
}

/**
 * A query thread's copy of a store's index, in numbers: each label string once (a symbol), each
 * series as the symbols of its label pairs in one typed array, the postings as typed arrays of
 * ids. It holds no object per series: a select builds the label sets of what it returns. (Kept as
 * one object per series with its label set and arrays of postings, 100,000 series took about
 * 32 MiB of a thread's heap, and the first copy sent to a thread grew its young generation by
 * 64 MiB while it was built.)
 */
export class ReplicaIndex {
  private symbols = new StringTable();
  /** By id: where the series' pairs start in `pairs`, -1 for no such series. */
  private starts = new Int32Array(1024).fill(-1);
  /** For each series at its start: its label count, then name and value symbols in turn. */
  private pairs = new Int32Array(4096);
  private pairsLength = 0;
  /** Slots of `pairs` left by dropped series; compacted once they are half of it. */
  private pairsDropped = 0;
  private live = 0;
  /** Above every id added. */
  private idsEnd = 0;
  private postings = new Map<number, Map<number, IdList>>();

  /** Adds a series (ids ascending, as a store hands them out); one already there is kept. */
  add(id: number, names: readonly string[], values: readonly string[]): void {
    if (id < this.idsEnd && this.starts[id] >= 0) return;
    if (id >= this.starts.length) this.starts = grown(this.starts, id + 1, -1);
    const start = this.reserve(1 + 2 * names.length);
    this.pairs[start] = names.length;
    for (let i = 0; i < names.length; i++) {
      const name = this.symbols.number(names[i]);
      const value = this.symbols.number(values[i]);
      this.pairs[start + 1 + 2 * i] = name;
      this.pairs[start + 2 + 2 * i] = value;
      this.post(name, value, id);
    }
    this.starts[id] = start;
    this.idsEnd = Math.max(this.idsEnd, id + 1);
    this.live++;
  }

  /** Forgets series; the postings are rebuilt once for all of them. */
  remove(ids: Iterable<number>): void {
    let removed = false;
    for (const id of ids) {
      if (id >= this.idsEnd || this.starts[id] < 0) continue;
      this.pairsDropped += 1 + 2 * this.pairs[this.starts[id]];
      this.starts[id] = -1;
      this.live--;
      removed = true;
    }
    if (!removed) return;
    if (this.pairsDropped * 2 > this.pairsLength) this.compact();
    this.postings = new Map();
    for (let id = 0; id < this.idsEnd; id++) {
      const start = this.starts[id];
      if (start < 0) continue;
      for (let i = 0; i < this.pairs[start]; i++) {
        this.post(this.pairs[start + 1 + 2 * i], this.pairs[start + 2 + 2 * i], id);
      }
    }
  }

  get size(): number {
    return this.live;
  }

  /**
   * Ids of the series matching every matcher, ascending (the order they were created, as
   * upstream's head answers an unsorted select).
   */
  select(matchers: readonly SeriesMatcher[]): ArrayLike<number> {
    let ids: ArrayLike<number> | undefined;
    const rest: SeriesMatcher[] = [];
    for (const m of matchers) {
      if (m.matches('')) {
        rest.push(m);
        continue;
      }
      const found = m.type === '=' ? this.exact(m.name, m.value) : this.matching(m.name, m.matches);
      ids = ids === undefined ? found : intersectSorted(ids, found);
      if (ids.length === 0) return [];
    }
    if (ids === undefined) ids = this.all();
    if (rest.length === 0) return ids;
    const kept: number[] = [];
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i];
      if (rest.every((m) => m.matches(this.value(id, m.name)))) kept.push(id);
    }
    return kept;
  }

  /** The values label `name` has in the index, in no particular order. */
  valuesOf(name: string): string[] {
    const n = this.symbols.find(name);
    const byValue = n === undefined ? undefined : this.postings.get(n);
    if (byValue === undefined) return [];
    const values: string[] = [];
    for (const [value, ids] of byValue)
      if (ids.length > 0) values.push(this.symbols.strings[value]);
    return values;
  }

  /**
   * The label set of series `id` as names and values, the names array shared with `names` when
   * it holds the same ones (series of one family in turn then share one).
   */
  labelsOf(id: number, names: readonly string[]): [readonly string[], string[]] {
    const start = this.starts[id];
    const count = this.pairs[start];
    let shared = names.length === count;
    for (let i = 0; shared && i < count; i++) {
      shared = names[i] === this.symbols.strings[this.pairs[start + 1 + 2 * i]];
    }
    const own = shared ? names : new Array<string>(count);
    const values = new Array<string>(count);
    for (let i = 0; i < count; i++) {
      if (!shared) (own as string[])[i] = this.symbols.strings[this.pairs[start + 1 + 2 * i]];
      values[i] = this.symbols.strings[this.pairs[start + 2 + 2 * i]];
    }
    return [own, values];
  }

  /** The value of label `name` of series `id`, '' when it has none. */
  private value(id: number, name: string): string {
    const symbol = this.symbols.find(name);
    if (symbol === undefined) return '';
    const start = this.starts[id];
    for (let i = 0; i < this.pairs[start]; i++) {
      if (this.pairs[start + 1 + 2 * i] === symbol) {
        return this.symbols.strings[this.pairs[start + 2 + 2 * i]];
      }
    }
    return '';
  }

  private exact(name: string, value: string): ArrayLike<number> {
    const n = this.symbols.find(name);
    const v = this.symbols.find(value);
    if (n === undefined || v === undefined) return [];
    return this.postings.get(n)?.get(v)?.view() ?? [];
  }

  private matching(name: string, accepts: (value: string) => boolean): ArrayLike<number> {
    const n = this.symbols.find(name);
    const byValue = n === undefined ? undefined : this.postings.get(n);
    if (byValue === undefined) return [];
    const lists: Int32Array[] = [];
    for (const [value, ids] of byValue)
      if (accepts(this.symbols.strings[value])) lists.push(ids.view());
    return unionSorted(lists);
  }

  private all(): Int32Array {
    const ids = new Int32Array(this.live);
    let n = 0;
    for (let id = 0; id < this.idsEnd; id++) if (this.starts[id] >= 0) ids[n++] = id;
    return ids;
  }

  private post(name: number, value: number, id: number): void {
    let byValue = this.postings.get(name);
    if (byValue === undefined) {
      byValue = new Map();
      this.postings.set(name, byValue);
    }
    let list = byValue.get(value);
    if (list === undefined) {
      list = new IdList();
      byValue.set(value, list);
    }
    list.push(id);
  }

  /** Room for `n` more slots of `pairs`; where they start. */
  private reserve(n: number): number {
    if (this.pairsLength + n > this.pairs.length) {
      this.pairs = grown(this.pairs, this.pairsLength + n, 0);
    }
    const start = this.pairsLength;
    this.pairsLength += n;
    return start;
  }

  /**
   * Moves the live series' pairs together, in id order, and keeps only the strings they use (the
   * postings are rebuilt after).
   */
  private compact(): void {
    const pairs = new Int32Array(Math.max(4096, 2 * (this.pairsLength - this.pairsDropped)));
    const renumbered = new Int32Array(this.symbols.strings.length).fill(-1);
    const symbols = new StringTable();
    let at = 0;
    for (let id = 0; id < this.idsEnd; id++) {
      const start = this.starts[id];
      if (start < 0) continue;
      const n = 1 + 2 * this.pairs[start];
      pairs[at] = this.pairs[start];
      for (let i = 1; i < n; i++) {
        const old = this.pairs[start + i];
        if (renumbered[old] < 0) renumbered[old] = symbols.number(this.symbols.strings[old]);
        pairs[at + i] = renumbered[old];
      }
      this.starts[id] = at;
      at += n;
    }
    this.symbols = symbols;
    this.pairs = pairs;
    this.pairsLength = at;
    this.pairsDropped = 0;
  }
}

/** `array` grown to hold at least `length` elements (at least doubled), new ones `fill`. */
function grown(array: Int32Array, length: number, fill: number): Int32Array<ArrayBuffer> {
  const next = new Int32Array(Math.max(length, array.length * 2));
  next.set(array);
  if (fill !== 0) next.fill(fill, array.length);
  return next;
}
