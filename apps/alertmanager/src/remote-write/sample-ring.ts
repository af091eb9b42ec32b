import type { Labels } from '../tsdb/labels';

/** Slots allocated before the first growth; the ring doubles up to its capacity as it fills. */
const INITIAL_SLOTS = 1024;

/**
 * The samples waiting for one remote, oldest first. Times and values live in typed arrays (no
 * object per sample, and a value's NaN bits are kept); the ring starts small and grows while it
 * fills, so an idle remote costs little memory. `capacity` is what its reader fills it up to:
 * reading whole records, it may go past it by the last one.
 */
export class SampleRing {
  private labels: (Labels | undefined)[];
  private t: Float64Array;
  private v: Float64Array;
  private stale: Uint8Array;
  private head = 0;
  private size = 0;

  constructor(readonly capacity: number) {
    const slots = Math.min(capacity, INITIAL_SLOTS);
    this.labels = new Array<Labels | undefined>(slots);
    this.t = new Float64Array(slots);
    this.v = new Float64Array(slots);
    this.stale = new Uint8Array(slots);
  }

  get length(): number {
    return this.size;
  }

  /** Adds a sample at the end. */
  push(labels: Labels, t: number, v: number, stale: boolean): void {
    if (this.size === this.t.length) this.grow();
    const at = (this.head + this.size) % this.t.length;
    this.labels[at] = labels;
    this.t[at] = t;
    this.v[at] = v;
    this.stale[at] = stale ? 1 : 0;
    this.size++;
  }

  /** The `i`th oldest sample's parts (0 is the oldest); `i` must be below `length`. */
  labelsAt(i: number): Labels {
    return this.labels[this.slot(i)] as Labels;
  }

  timeAt(i: number): number {
    return this.t[this.slot(i)];
  }

  valueAt(i: number): number {
    return this.v[this.slot(i)];
  }

  isStaleAt(i: number): boolean {
    return this.stale[this.slot(i)] === 1;
  }

  /** Removes the `n` oldest samples (once sent, or given up on). */
  shift(n: number): void {
    const count = Math.min(n, this.size);
    for (let i = 0; i < count; i++) this.labels[this.slot(i)] = undefined;
    this.head = (this.head + count) % this.t.length;
    this.size -= count;
  }

  private slot(i: number): number {
    return (this.head + i) % this.t.length;
  }

  private grow(): void {
    const slots =
      this.size < this.capacity ? Math.min(this.capacity, this.t.length * 2) : this.t.length * 2;
    const labels = new Array<Labels | undefined>(slots);
    const t = new Float64Array(slots);
    const v = new Float64Array(slots);
    const stale = new Uint8Array(slots);
    for (let i = 0; i < this.size; i++) {
      const from = this.slot(i);
      labels[i] = this.labels[from];
      t[i] = this.t[from];
      v[i] = this.v[from];
      stale[i] = this.stale[from];
    }
    this.labels = labels;
    this.t = t;
    this.v = v;
    this.stale = stale;
    this.head = 0;
  }
}
