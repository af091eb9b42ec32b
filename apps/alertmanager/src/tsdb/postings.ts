import { postingsStats, type PostingsStats } from './postings-stats';

/**
 * The inverted index: for each label pair, the ids of the series that have it, ascending (ids
 * are handed out in order, so appending keeps the lists sorted).
 */
export class Postings {
  private readonly byName = new Map<string, Map<string, number[]>>();

  add(id: number, names: readonly string[], values: readonly string[]): void {
    for (let i = 0; i < names.length; i++) {
      let byValue = this.byName.get(names[i]);
      if (byValue === undefined) {
        byValue = new Map();
        this.byName.set(names[i], byValue);
      }
      const list = byValue.get(values[i]);
      if (list === undefined) byValue.set(values[i], [id]);
      else list.push(id);
    }
  }

  /** Ids of series whose `name` label has a value accepted by `accepts`, ascending. */
  matching(name: string, accepts: (value: string) => boolean): number[] {
    const byValue = this.byName.get(name);
    if (byValue === undefined) return [];
    const lists: number[][] = [];
    for (const [value, ids] of byValue) if (accepts(value)) lists.push(ids);
    return unionSorted(lists);
  }

  /** Ids with exactly `name="value"`. */
  exact(name: string, value: string): readonly number[] {
    return this.byName.get(name)?.get(value) ?? [];
  }

  /** The values a label takes, for the label values API. */
  values(name: string): string[] {
    return [...(this.byName.get(name)?.keys() ?? [])];
  }

  names(): string[] {
    return [...this.byName.keys()];
  }

  /** The cardinality lists of `/api/v1/status/tsdb`, `metricLabel`'s values as metric names. */
  stats(metricLabel: string): Promise<PostingsStats> {
    return postingsStats(this.byName, metricLabel);
  }
}

/** The intersection of ascending id lists. */
export function intersectSorted(a: ArrayLike<number>, b: ArrayLike<number>): number[] {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      out.push(a[i]);
      i++;
      j++;
    } else if (a[i] < b[j]) i++;
    else j++;
  }
  return out;
}

/** The union of ascending id lists, ascending and without repeats. */
export function unionSorted(lists: readonly ArrayLike<number>[]): number[] {
  if (lists.length === 0) return [];
  if (lists.length === 1) return Array.from(lists[0]);
  const all: number[] = [];
  for (const list of lists) for (let i = 0; i < list.length; i++) all.push(list[i]);
  all.sort((x, y) => x - y);
  const out: number[] = [];
  for (const id of all) if (out.length === 0 || out[out.length - 1] !== id) out.push(id);
  return out;
}
