import { Labels } from '../labels';
import { MemoryStore } from '../memory-store';
import { SAMPLES_PER_CHUNK } from '../chunks/xor-chunk';
import { readSeriesSamples } from './chunk-reader';
import { StoreMemoryView } from './store-memory';

/** What a reader on another thread sees: a view made from the handles alone. */
function readerOf(store: MemoryStore): StoreMemoryView {
  const view = new StoreMemoryView(store.memory.handles());
  store.memory.onSegment((id, buffer) => view.segments.adopt(id, buffer));
  return view;
}

function readAll(view: StoreMemoryView, id: number, mint = -Infinity, maxt = Infinity) {
  const run = readSeriesSamples(view.table, view.bytes, id, mint, maxt);
  return { t: [...run.t], v: [...run.v], stale: run.stale ? [...run.stale] : undefined };
}

describe('StoreMemory: samples read through the shared table, as a query thread reads them', () => {
  const labels = Labels.fromRecord({ __name__: 'm' });

  it.each([
    ['regular counter', (i: number) => i * 10],
    ['random floats (chunks outgrow their slots)', (i: number) => Math.sin(i) * 1e6 + i / 7],
    ['constant', () => 42],
  ])('reads back every sample of %s across sealed chunks and the open one', (_name, value) => {
    const store = new MemoryStore();
    const view = readerOf(store);
    const n = SAMPLES_PER_CHUNK * 3 + 17;
    for (let i = 0; i < n; i++) store.append(labels, i * 15_000, value(i));
    const id = store.seriesFor(labels).id;
    const read = readAll(view, id);
    expect(read.t).toEqual(Array.from({ length: n }, (_, i) => i * 15_000));
    expect(read.v).toEqual(Array.from({ length: n }, (_, i) => value(i)));
    expect(readAll(view, id, 15_000 * 240, 15_000 * 241).t).toEqual([15_000 * 240, 15_000 * 241]);
  });

  it('sees each sample as soon as it is appended, and staleness markers apart from NaN', () => {
    const store = new MemoryStore();
    const view = readerOf(store);
    store.append(labels, 1000, NaN);
    const id = store.seriesFor(labels).id;
    expect(readAll(view, id).t).toEqual([1000]);
    store.append(labels, 2000, 0, true);
    store.append(labels, 3000, 7);
    const read = readAll(view, id);
    expect(read.t).toEqual([1000, 2000, 3000]);
    expect(read.stale).toEqual([0, 1, 0]);
    expect(read.v[2]).toBe(7);
  });

  it('keeps dropped chunks intact for a read that started before the drop, and reuses them after', () => {
    const store = new MemoryStore();
    const view = readerOf(store);
    for (let i = 0; i < SAMPLES_PER_CHUNK * 2; i++) store.append(labels, i * 1000, i);
    const id = store.seriesFor(labels).id;
    const table = store.memory.table;
    const oldest = table.previous(table.latest(id));
    const oldestBytes = view.segments.from(table.ref(oldest)).slice(0, 64);
    const read = store.memory.epochs.begin();
    store.truncateBefore(SAMPLES_PER_CHUNK * 1000);
    expect(readAll(view, id).t[0]).toBe(SAMPLES_PER_CHUNK * 1000);
    // The reader that was walking the chain can still decode the dropped chunk.
    expect(store.memory.epochs.pending).toBeGreaterThan(0);
    expect(view.segments.from(table.ref(oldest)).slice(0, 64)).toEqual(oldestBytes);
    store.memory.epochs.end(read);
    expect(store.memory.epochs.pending).toBe(0);
  });

  it('drops a series whose every chunk is past the retention', () => {
    const store = new MemoryStore();
    const view = readerOf(store);
    store.append(labels, 1000, 1);
    const id = store.seriesFor(labels).id;
    store.truncateBefore(5000);
    expect(store.seriesCount).toBe(0);
    expect(readAll(view, id).t).toEqual([]);
  });
});
