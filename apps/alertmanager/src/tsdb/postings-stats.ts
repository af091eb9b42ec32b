import { nextTurn } from '../time/next-turn';

/** One entry of a cardinality list: a name and its count (series, values or bytes). */
export interface CardinalityStat {
  readonly name: string;
  readonly value: number;
}

/** The cardinality lists of the postings, as Prometheus's head computes them for `status/tsdb`. */
export interface PostingsStats {
  /** Series per metric name (the values of the statistics label, `__name__`). */
  readonly seriesCountByMetricName: CardinalityStat[];
  /** Distinct values per label name. */
  readonly labelValueCountByLabelName: CardinalityStat[];
  /** Bytes (UTF-8) of the distinct values per label name: label names are not counted. */
  readonly memoryInBytesByLabelName: CardinalityStat[];
  /** Series per `name=value` pair. */
  readonly seriesCountByLabelValuePair: CardinalityStat[];
  /** Distinct label pairs in the index. */
  readonly numLabelPairs: number;
}

/** How many entries each list keeps, as upstream (2.42 takes no `limit`). */
export const CARDINALITY_LIST_LENGTH = 10;

/**
 * The `limit` largest entries seen, largest first. Upstream's ties come out in its map's random
 * order; here they are ordered by name (Go's byte order for ASCII), so the answer is stable.
 */
export class TopStats {
  private readonly items: CardinalityStat[] = [];

  constructor(private readonly limit = CARDINALITY_LIST_LENGTH) {}

  /**
   * Offers an entry named `name`, or `name=pairValue` for a label pair: that name is only built
   * when the entry can make the list (nothing is allocated for the others).
   */
  offer(value: number, name: string, pairValue?: string): void {
    const { items, limit } = this;
    const last = items[limit - 1] as CardinalityStat | undefined;
    if (last !== undefined && value < last.value) return;
    const text = pairValue === undefined ? name : `${name}=${pairValue}`;
    if (last !== undefined && value === last.value && text >= last.name) return;
    let at = items.length;
    while (at > 0 && before(value, text, items[at - 1])) at--;
    items.splice(at, 0, { name: text, value });
    if (items.length > limit) items.pop();
  }

  get(): CardinalityStat[] {
    return [...this.items];
  }
}

function before(value: number, name: string, other: CardinalityStat): boolean {
  return value > other.value || (value === other.value && name < other.name);
}

/** Label pairs (or series) looked at between two turns of the event loop. */
export const STATS_SLICE = 1024;

/**
 * The cardinality statistics of an inverted index (label name, then value, then the ids of the
 * series that have the pair), computed as upstream's `MemPostings.Stats`; `metricLabel` is the
 * label whose values count as metric names. It yields to the event loop (`pause`) after every
 * `slice` pairs, so a large index does not hold the loop; appends made meanwhile may or may not
 * be counted, as with upstream's lock released between requests.
 */
export async function postingsStats(
  byName: ReadonlyMap<string, ReadonlyMap<string, readonly number[]>>,
  metricLabel: string,
  pause: () => Promise<void> = nextTurn,
  slice = STATS_SLICE,
): Promise<PostingsStats> {
  const metrics = new TopStats();
  const labels = new TopStats();
  const bytes = new TopStats();
  const pairs = new TopStats();
  let numLabelPairs = 0;
  let seen = 0;
  for (const [name, byValue] of byName) {
    if (name === '') continue;
    labels.offer(byValue.size, name);
    numLabelPairs += byValue.size;
    let size = 0;
    const isMetric = name === metricLabel;
    for (const [value, ids] of byValue) {
      if (isMetric) metrics.offer(ids.length, value);
      pairs.offer(ids.length, name, value);
      size += utf8Length(value);
      if (++seen % slice === 0) await pause();
    }
    bytes.offer(size, name);
  }
  return {
    seriesCountByMetricName: metrics.get(),
    labelValueCountByLabelName: labels.get(),
    memoryInBytesByLabelName: bytes.get(),
    seriesCountByLabelValuePair: pairs.get(),
    numLabelPairs,
  };
}

/** Go's `len` of a string: its UTF-8 bytes (a scan, cheaper than encoding for short values). */
function utf8Length(text: string): number {
  let n = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    if (code < 0x800) n += 1;
    else if (code >= 0xd800 && code <= 0xdbff) {
      // A pair of UTF-16 units: four bytes in all.
      n += 2;
      i++;
    } else n += 2;
  }
  return n;
}
