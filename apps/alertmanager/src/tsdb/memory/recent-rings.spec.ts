import { Labels } from '../labels';
import { MemoryStore } from '../memory-store';
import type { MemorySeries } from '../memory-series';
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
  it.each([
    {
      what: 'a new series with fewer samples than the ring: every window, from any time',
      build: (s: MemorySeries) => fill(s, 10),
      answered: BACKS,
    },
    {
      what: 'a series past its ring: the windows within its newest samples',
      build: (s: MemorySeries) => fill(s, 500),
      answered: [0, 1, 5, 19, 20, RECENT_SAMPLES - 1],
    },
    {
      what: 'a series told that older chunks are cold: no longer the windows before its oldest',
      build: (s: MemorySeries) => {
        fill(s, 10);
        s.mayBeColdUntil(-1);
      },
      answered: [0, 1, 5],
    },
    {
      what: 'a series cut by the retention to fewer samples than the ring: every window',
      build: (s: MemorySeries) => {
        fill(s, 250);
        // The first chunk (240 samples) goes; 10 are left, then 3 more come.
        s.truncateBefore(245 * STEP);
        fill(s, 3, 250);
      },
      answered: BACKS,
    },
  ])('$what', ({ build, answered }) => {
    const store = new MemoryStore();
    const series = store.seriesFor(labels);
    build(series);
    expect(answeredWindows(store, series, BACKS)).toEqual(answered);
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
    const ring = store.memory.table.recentRing(first.id);
    store.truncateBefore(Infinity);
    expect(store.memory.table.recentRing(first.id)).toBe(-1);
    const other = store.seriesFor(Labels.fromRecord({ __name__: 'other' }));
    fill(other, 3, 100);
    expect(store.memory.table.recentRing(other.id)).toBe(ring);
    expect(answeredWindows(store, other, BACKS)).toEqual(BACKS);
  });
});
