import { compareLabels, type Labels } from '../labels';
import type { SeriesMatcher } from '../queryable';
import {
  EXEMPLAR_MAX_LABEL_SET_LENGTH,
  ExemplarRefusal,
  labelSetLength,
  sameExemplar,
  type Exemplar,
  type SeriesExemplars,
} from './exemplar';
import { nextTurn } from '../../time/next-turn';
import { ExemplarAppender } from './exemplar-appender';
import type { ExemplarMetrics } from './exemplar-metrics';

/** No further exemplar of the series. */
const NONE = -1;
/** How long a slice of an API query's selection runs before the event loop turns. */
const SLICE_MS = 5;

const bySeries = (a: SeriesExemplars, b: SeriesExemplars) =>
  compareLabels(a.seriesLabels, b.seriesLabels);

/** One slot of the ring: an exemplar, the slot of its series' next one, and its series. */
interface Slot {
  exemplar: Exemplar;
  next: number;
  series: SeriesEntry;
}

/** A series with exemplars in the ring: the slots of its oldest and newest. */
interface SeriesEntry {
  oldest: number;
  newest: number;
  readonly labels: Labels;
}

/**
 * The exemplars of every series in one ring of `max_exemplars` slots, as Prometheus's circular
 * exemplar storage: a new exemplar takes the slot after the last one written, dropping the
 * oldest exemplar of the whole store once the ring is full; each series links its own
 * exemplars oldest to newest through the slots. An exemplar equal to its series' newest is a
 * duplicate and skipped; one not newer than its series' newest is out of order and refused. A
 * size of 0 keeps nothing. Bounded, so reads walk it whole on the main thread.
 */
export class CircularExemplarStore {
  private slots: (Slot | undefined)[];
  private nextIndex = 0;
  private index = new Map<string, SeriesEntry>();

  constructor(
    maxExemplars: number,
    private readonly metrics: ExemplarMetrics,
  ) {
    const size = Math.max(0, maxExemplars);
    this.slots = new Array<Slot | undefined>(size);
    this.metrics.maxExemplars.set(size);
  }

  /** How many exemplars the ring holds at most. */
  get capacity(): number {
    return this.slots.length;
  }

  /** A batch of exemplars checked as they come and stored together (one scrape's). */
  appender(): ExemplarAppender {
    return new ExemplarAppender(this);
  }

  /**
   * Why the store would refuse `exemplar` for the series now, if it would: too many label
   * characters, a duplicate of the series' newest, or not newer than it. Counts nothing.
   */
  validate(series: Labels, exemplar: Exemplar): ExemplarRefusal | undefined {
    return this.check(series, exemplar, false);
  }

  /**
   * Stores an exemplar of the series, unless refused (see {@link validate}); a duplicate is
   * skipped and reported as such. Counts it as appended, or as out of order.
   */
  add(series: Labels, exemplar: Exemplar): ExemplarRefusal | undefined {
    const refusal = this.check(series, exemplar, true);
    if (refusal !== undefined) return refusal;
    const at = this.nextIndex;
    const entry = this.linkAt(series, at);
    // The slot's exemplar goes: its series now starts at its next one, or has none left. (Linked
    // first, so a series whose only exemplar is overwritten by its own new one stays indexed.)
    const previous = this.slots[at];
    if (previous !== undefined) {
      if (previous.next === NONE) this.index.delete(previous.series.labels.key);
      else previous.series.oldest = previous.next;
    }
    const slot = previous ?? { exemplar, next: NONE, series: entry };
    slot.exemplar = exemplar;
    slot.next = NONE;
    slot.series = entry;
    this.slots[at] = slot;
    entry.newest = at;
    this.nextIndex = (at + 1) % this.slots.length;
    this.metrics.appended.inc();
    this.updateMetrics();
    return undefined;
  }

  /**
   * The exemplars with `startMs <= t <= endMs` of the series any matcher set selects (every
   * matcher of the set matching), series in label order, each series' exemplars oldest first.
   */
  select(
    startMs: number,
    endMs: number,
    matcherSets: readonly (readonly SeriesMatcher[])[],
  ): SeriesExemplars[] {
    const found: SeriesExemplars[] = [];
    for (const entry of this.index.values())
      this.collect(entry, startMs, endMs, matcherSets, found);
    return found.sort(bySeries);
  }

  /**
   * {@link select} in slices of a few milliseconds that yield to the event loop (the API's
   * queries: a whole store of 100,000 exemplars takes hundreds of milliseconds). Each series is
   * read whole in one slice; one gone meanwhile is left out.
   */
  async selectInSlices(
    startMs: number,
    endMs: number,
    matcherSets: readonly (readonly SeriesMatcher[])[],
  ): Promise<SeriesExemplars[]> {
    const found: SeriesExemplars[] = [];
    const entries = [...this.index.values()];
    let sliceStart = performance.now();
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i];
      if (this.index.get(entry.labels.key) === entry) {
        this.collect(entry, startMs, endMs, matcherSets, found);
      }
      if (i % 64 === 63 && performance.now() - sliceStart > SLICE_MS) {
        await nextTurn();
        sliceStart = performance.now();
      }
    }
    return found.sort(bySeries);
  }

  /** Pushes the series' exemplars within `[startMs, endMs]` when a matcher set selects it. */
  private collect(
    entry: SeriesEntry,
    startMs: number,
    endMs: number,
    matcherSets: readonly (readonly SeriesMatcher[])[],
    found: SeriesExemplars[],
  ): void {
    let slot = this.slots[entry.oldest] as Slot;
    const newest = (this.slots[entry.newest] as Slot).exemplar;
    if (slot.exemplar.timestampMs > endMs || newest.timestampMs < startMs) return;
    if (!matcherSets.some((set) => set.every((m) => m.matches(entry.labels.get(m.name))))) return;
    const exemplars: Exemplar[] = [];
    // A series' exemplars are in time order: stop at the first past the end.
    while (slot.exemplar.timestampMs <= endMs) {
      if (slot.exemplar.timestampMs >= startMs) exemplars.push(slot.exemplar);
      if (slot.next === NONE) break;
      slot = this.slots[slot.next] as Slot;
    }
    if (exemplars.length > 0) found.push({ seriesLabels: entry.labels, exemplars });
  }

  /**
   * Gives the ring `size` slots (a reload's `max_exemplars`), keeping the newest exemplars that
   * fit, in the order they were written; returns how many were kept.
   */
  resize(size: number): number {
    const wanted = Math.max(0, size);
    if (wanted === this.slots.length) return 0;
    const old = this.slots;
    const oldNext = this.nextIndex;
    this.slots = new Array<Slot | undefined>(wanted);
    this.index = new Map();
    this.nextIndex = 0;
    const count = Math.min(wanted, old.length);
    let kept = 0;
    if (count > 0) {
      // The `count` slots written last before the old next one, oldest first.
      const from = (oldNext - count + old.length) % old.length;
      for (let i = 0; i < count; i++) {
        const slot = old[(from + i) % old.length];
        if (slot === undefined) continue;
        this.append(slot.series.labels, slot.exemplar);
        kept++;
      }
    }
    this.updateMetrics();
    this.metrics.maxExemplars.set(wanted);
    return kept;
  }

  /** Every stored exemplar with its series, oldest written first. */
  *entries(): IterableIterator<[Labels, Exemplar]> {
    const size = this.slots.length;
    for (let i = 0, at = this.nextIndex; i < size; i++, at = (at + 1) % size) {
      const slot = this.slots[at];
      if (slot !== undefined) yield [slot.series.labels, slot.exemplar];
    }
  }

  /** The series' entry, with slot `at` linked after its newest exemplar (a new entry there). */
  private linkAt(series: Labels, at: number): SeriesEntry {
    const entry = this.index.get(series.key);
    if (entry === undefined) {
      const created = { oldest: at, newest: at, labels: series };
      this.index.set(series.key, created);
      return created;
    }
    (this.slots[entry.newest] as Slot).next = at;
    return entry;
  }

  /** Writes into the next slot of a ring with room, without checks or counting (resizing). */
  private append(series: Labels, exemplar: Exemplar): void {
    const at = this.nextIndex;
    const entry = this.linkAt(series, at);
    entry.newest = at;
    this.slots[at] = { exemplar, next: NONE, series: entry };
    this.nextIndex = (at + 1) % this.slots.length;
  }

  private check(series: Labels, exemplar: Exemplar, adding: boolean): ExemplarRefusal | undefined {
    if (this.slots.length === 0) return ExemplarRefusal.disabled;
    if (labelSetLength(exemplar.labels) > EXEMPLAR_MAX_LABEL_SET_LENGTH) {
      return ExemplarRefusal.labelLength;
    }
    const entry = this.index.get(series.key);
    if (entry === undefined) return undefined;
    const newest = (this.slots[entry.newest] as Slot).exemplar;
    if (sameExemplar(newest, exemplar)) return ExemplarRefusal.duplicate;
    if (exemplar.timestampMs <= newest.timestampMs) {
      // As upstream, only an append counts: a scrape's check before it does not.
      if (adding) this.metrics.outOfOrder.inc();
      return ExemplarRefusal.outOfOrder;
    }
    return undefined;
  }

  /** The gauges: series and exemplars held, and the time of the oldest exemplar. */
  private updateMetrics(): void {
    this.metrics.seriesInStorage.set(this.index.size);
    if (this.slots.length === 0) {
      this.metrics.inStorage.set(0);
      this.metrics.lastTimestampSeconds.set(0);
      return;
    }
    const oldest = this.slots[this.nextIndex];
    if (oldest !== undefined) {
      this.metrics.inStorage.set(this.slots.length);
      this.metrics.lastTimestampSeconds.set(oldest.exemplar.timestampMs / 1000);
      return;
    }
    // Not full yet: the slots before the next one are written, the first is the oldest.
    this.metrics.inStorage.set(this.nextIndex);
    const first = this.slots[0];
    if (first !== undefined)
      this.metrics.lastTimestampSeconds.set(first.exemplar.timestampMs / 1000);
  }
}
