import { IndexFeed } from '../index-feed';
import { Labels } from '../labels';
import { MemoryStore } from '../memory-store';
import type { MemorySeries } from '../memory-series';
import { SeriesReplica } from '../series-replica';
import { readSeriesSamples } from './chunk-reader';
import { RECENT_SAMPLES } from './recent-rings';
import { StoreMemoryView } from './store-memory';

const STEP = 15_000;
const labels = Labels.fromRecord({ __name__: 'm' });

/** What a query thread sees: a view made from the handles alone. */
function readerOf(store: MemoryStore): StoreMemoryView {
  const view = new StoreMemoryView(store.memory.handles());
  store.memory.onSegment((id, buffer) => view.segments.adopt(id, buffer));
  return view;
}

const plain = (run: { t: Float64Array; v: Float64Array; stale: Uint8Array | undefined }) => ({
  t: [...run.t],
  v: [...run.v],
  stale: run.t.length === 0 ? [] : Array.from(run.t, (_, i) => run.stale?.[i] ?? 0),
});

/**
 * For each window ending at the series' newest sample and reaching `back` steps before it, which
 * the ring answers, checking every answer against the chunks'.
 */
function answeredWindows(store: MemoryStore, series: MemorySeries, backs: number[]): number[] {
  const view = readerOf(store);
  const ring = view.table.recentRing(series.id);
  const newest = series.lastTimestamp;
  const answered: number[] = [];
  for (const back of backs) {
    const mint = back === Infinity ? -Infinity : newest - back * STEP;
    const fromChunks = readSeriesSamples(view.table, view.bytes, series.id, mint, newest);
    const fromRing = ring < 0 ? undefined : view.rings.read(ring, mint, newest);
    if (fromRing === undefined) continue;
    expect(plain(fromRing)).toEqual(plain(fromChunks));
    answered.push(back);
  }
  // The writing thread's own reads agree, whether from the ring or the chunks.
  for (const back of backs) {
    const mint = back === Infinity ? -Infinity : newest - back * STEP;
    const fromChunks = readSeriesSamples(view.table, view.bytes, series.id, mint, newest);
    expect(plain(series.samples(mint, newest))).toEqual(plain(fromChunks));
  }
  return answered;
}

/** `n` samples at 15 s, NaN every seventh, a staleness marker every thirteenth. */
function fill(series: MemorySeries, n: number, from = 0): void {
  for (let i = from; i < from + n; i++) {
    series.append(i * STEP, i % 7 === 0 ? NaN : i * 1.25, i % 13 === 12);
  }
}

const BACKS = [0, 1, 5, 19, 20, RECENT_SAMPLES - 1, RECENT_SAMPLES, 60, 500, Infinity];

describe('RecentRings: each series newest samples in shared memory, read by any thread', () => {
  // `open` is what the store does once a query thread has read the series' newest samples.
  it.each([
    {
      what: 'a series never read: no ring, every window from the chunks',
      build: (s: MemorySeries) => fill(s, 10),
      answered: [],
    },
    {
      what: 'a new series with fewer samples than the ring: every window, from any time',
      build: (s: MemorySeries, open: () => void) => {
        fill(s, 1);
        open();
        fill(s, 9, 1);
      },
      answered: BACKS,
    },
    {
      what: 'a series read after its ring would have filled: the windows within its newest samples',
      build: (s: MemorySeries, open: () => void) => {
        fill(s, 500);
        open();
      },
      answered: [0, 1, 5, 19, 20, RECENT_SAMPLES - 1],
    },
    {
      what: 'a series past its ring: the windows within its newest samples',
      build: (s: MemorySeries, open: () => void) => {
        fill(s, 1);
        open();
        fill(s, 499, 1);
      },
      answered: [0, 1, 5, 19, 20, RECENT_SAMPLES - 1],
    },
    {
      what: 'a series told that older chunks are cold: no longer the windows before its oldest',
      build: (s: MemorySeries, open: () => void) => {
        fill(s, 10);
        open();
        s.mayBeColdUntil(-1);
      },
      answered: [0, 1, 5],
    },
    {
      what: 'a series cut by the retention to fewer samples than the ring: every window',
      build: (s: MemorySeries, open: () => void) => {
        fill(s, 1);
        open();
        fill(s, 249, 1);
        // The first chunk (240 samples) goes; 10 are left, then 3 more come.
        s.truncateBefore(245 * STEP);
        fill(s, 3, 250);
      },
      answered: BACKS,
    },
  ])('$what', ({ build, answered }) => {
    const store = new MemoryStore();
    const series = store.seriesFor(labels);
    build(series, () => series.fillRecent());
    expect(answeredWindows(store, series, BACKS)).toEqual(answered);
  });

  it('opens the rings of the series a replica read the newest samples of from their chunks', async () => {
    const store = new MemoryStore();
    const names = ['a', 'b', 'c'];
    for (const name of names) fill(store.seriesFor(Labels.fromRecord({ __name__: name })), 50);
    const replica = new SeriesReplica(store.memory.handles());
    store.memory.onSegment((id, buffer) => replica.adoptSegment(id, buffer));
    replica.apply(new IndexFeed(store).everything());
    replica.recordRingless(true);
    const select = (name: string) =>
      replica
        .querier()
        .select([{ name: '__name__', type: '=', value: name, matches: (v) => v === name }])[0];
    const newest = 49 * STEP;
    // An older window, then the newest of `a` and `b` (twice): only those two are asked for.
    select('c').samples(0, 10 * STEP);
    select('a').samples(newest - 300_000, newest);
    select('b').samples(newest - 300_000, newest);
    select('b').samples(newest - 60_000, newest);
    const ids = replica.takeRingless();
    expect([...(ids ?? [])]).toEqual([0, 1]);
    expect(replica.takeRingless()).toBeUndefined();
    store.openRings(ids ?? []);
    await store.ringsOpened();
    const view = readerOf(store);
    expect(names.map((_, id) => view.table.recentRing(id) >= 0)).toEqual([true, true, false]);
    // Read again, `a` and `b` are answered by their rings and nothing is asked for.
    expect(view.rings.read(view.table.recentRing(0), newest - 300_000, newest)).toBeDefined();
    const run = select('a').samples(newest - 300_000, newest);
    expect([...run.t]).toEqual(Array.from({ length: 21 }, (_, i) => (29 + i) * STEP));
    select('b').samples(newest - 300_000, newest);
    expect(replica.takeRingless()).toBeUndefined();
  });

  it('refills after a start that resumed the open chunk without decoding it', () => {
    const before = new MemoryStore();
    const old = before.seriesFor(labels);
    fill(old, 300);
    const after = new MemoryStore();
    const series = after.create(labels, old.id);
    series.importChunks(old.memoryChunks(), old.openChunkState());
    expect(answeredWindows(after, series, BACKS)).toEqual([]);
    series.fillRecent();
    expect(answeredWindows(after, series, BACKS)).toEqual([0, 1, 5, 19, 20, RECENT_SAMPLES - 1]);
    // A short series resumed whole is held whole.
    const short = new MemoryStore();
    const shortSeries = short.seriesFor(labels);
    fill(shortSeries, 12);
    const resumedStore = new MemoryStore();
    const resumed = resumedStore.create(labels, 0);
    resumed.importChunks(shortSeries.memoryChunks(), shortSeries.openChunkState());
    resumed.fillRecent();
    const view = readerOf(resumedStore);
    expect(view.rings.read(view.table.recentRing(0), -Infinity, Infinity)?.t.length).toBe(12);
  });

  it('lets a dropped series ring go, to be reused by a new series that holds only its own', () => {
    const store = new MemoryStore();
    const first = store.seriesFor(labels);
    fill(first, 40);
    first.fillRecent();
    const ring = store.memory.table.recentRing(first.id);
    store.truncateBefore(Infinity);
    expect(store.memory.table.recentRing(first.id)).toBe(-1);
    const other = store.seriesFor(Labels.fromRecord({ __name__: 'other' }));
    fill(other, 1, 100);
    other.fillRecent();
    fill(other, 2, 101);
    expect(store.memory.table.recentRing(other.id)).toBe(ring);
    expect(answeredWindows(store, other, BACKS)).toEqual(BACKS);
  });
});
