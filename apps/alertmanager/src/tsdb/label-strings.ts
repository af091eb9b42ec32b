import { TimeSlices } from '../time/time-slices';
import { detached } from './detached-string';
import { Labels } from './labels';

/** Strings the pool may hold beyond twice those of the live series before it is rebuilt. */
const REBUILD_SLACK = 4096;
/** How long a slice of a rebuild runs before the event loop turns. */
const SLICE_MS = 5;

/** A pool's maps: each string once, and the names arrays by their names. */
interface Pool {
  readonly strings: Map<string, string>;
  readonly nameSets: Map<string, readonly string[]>;
}

/**
 * The label strings of a store's series, each held once: a new series' names and values are
 * taken from here when another series has them (a scrape's `job`, `instance`, a histogram's
 * `le` values), copied out of the body they were parsed from otherwise, and the series of one
 * label-name set share one names array. At 100,000 series of the specification's families this
 * held 19 MiB less than a copy per series.
 *
 * Dropped series leave their strings until the pool has more than twice (and
 * {@link REBUILD_SLACK} more than) the strings it was last rebuilt with; it is then rebuilt from
 * the live series (`rebuild`, in slices that yield to the event loop: at 100,000 series a rebuild
 * in one go took about 45 ms), so it follows the series through churn.
 */
export class LabelStrings {
  private strings = new Map<string, string>();
  private nameSets = new Map<string, readonly string[]>();
  private rebuiltWith = 0;
  /** The pool a rebuild under way is making: what is kept meanwhile goes into it too. */
  private next: Pool | undefined;

  /** `labels` with the pool's strings and names array (itself when it already has them). */
  keep(labels: Labels): Labels {
    if (labels.isKept) return labels;
    const values = new Array<string>(labels.size);
    for (let i = 0; i < values.length; i++) values[i] = this.string(labels.values[i]);
    return Labels.ofKept(this.names(labels.names), values);
  }

  /**
   * Whether dropped series have left enough strings behind for `rebuild` to be worth its pass
   * (never while one is under way).
   */
  get wantsRebuild(): boolean {
    return this.next === undefined && this.strings.size > 2 * this.rebuiltWith + REBUILD_SLACK;
  }

  /**
   * Keeps only the strings and names arrays of `live` (the store's series when it was called)
   * and of the sets kept meanwhile, in slices that yield to the event loop.
   */
  async rebuild(live: readonly Labels[], sliceMs = SLICE_MS): Promise<void> {
    const next: Pool = { strings: new Map(), nameSets: new Map() };
    this.next = next;
    try {
      const slices = new TimeSlices(sliceMs, 256);
      for (const labels of live) {
        addTo(next, labels);
        if (slices.due()) await slices.next();
      }
    } finally {
      this.next = undefined;
    }
    this.strings = next.strings;
    this.nameSets = next.nameSets;
    this.rebuiltWith = next.strings.size;
  }

  get size(): number {
    return this.strings.size;
  }

  private string(text: string): string {
    let kept = this.strings.get(text);
    if (kept === undefined) {
      kept = detached(text);
      this.strings.set(kept, kept);
    }
    this.next?.strings.set(kept, kept);
    return kept;
  }

  private names(names: readonly string[]): readonly string[] {
    const key = names.join('\xff');
    let kept = this.nameSets.get(key);
    if (kept === undefined) {
      kept = names.map((name) => this.string(name));
      this.nameSets.set(detached(key), kept);
    }
    this.next?.nameSets.set(key, kept);
    return kept;
  }
}

/** Adds a live set's strings and names array to `pool`. */
function addTo(pool: Pool, labels: Labels): void {
  pool.nameSets.set(labels.names.join('\xff'), labels.names);
  for (const name of labels.names) pool.strings.set(name, name);
  for (const value of labels.values) pool.strings.set(value, value);
}
