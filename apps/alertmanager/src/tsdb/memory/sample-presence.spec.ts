import { Labels } from '../labels';
import { IndexFeed } from '../index-feed';
import { MemoryStore } from '../memory-store';
import type { MemorySeries } from '../memory-series';
import { SeriesReplica } from '../series-replica';

const STEP = 15_000;

/** Samples at 15 s in runs, with gaps between them inside one chunk and across chunks. */
function gappy(series: MemorySeries): void {
  const runs: [number, number][] = [
    [0, 100],
    [130, 300],
    [302, 303],
    [400, 620],
    [700, 705],
  ];
  for (const [from, to] of runs) for (let i = from; i <= to; i++) series.append(i * STEP, i);
}

/** Windows around every interesting time: in runs, in gaps, across chunk edges, before, after. */
function windows(): [number, number][] {
  const points = [-50, 0, 50, 100, 101, 115, 129, 130, 239, 240, 241, 300, 301, 302, 303];
  points.push(350, 399, 400, 479, 480, 481, 620, 650, 700, 705, 706, 2000);
  const out: [number, number][] = [[-Infinity, Infinity]];
  for (const a of points) {
    for (const b of points) if (a <= b) out.push([a * STEP, b * STEP]);
    out.push([a * STEP + 1, a * STEP + 2], [a * STEP - 2, a * STEP - 1]);
  }
  return out;
}

describe('hasSamples: whether a series has a sample in a range, from its chunks where they tell', () => {
  const store = new MemoryStore();
  const series = store.seriesFor(Labels.fromRecord({ __name__: 'gappy' }));
  gappy(series);
  // What a query thread reads: a replica of the index over the same shared memory.
  const replica = new SeriesReplica(store.memory.handles());
  replica.apply(new IndexFeed(store).everything());

  it.each(windows())('[%d, %d] as the samples say, on the writing thread and a replica', (a, b) => {
    const expected = series.samples(a, b).t.length > 0;
    expect(series.hasSamples(a, b)).toBe(expected);
    const [copy] = replica
      .querier()
      .select([{ name: '__name__', type: '=', value: 'gappy', matches: (v) => v === 'gappy' }]);
    expect(copy.hasSamples(a, b)).toBe(expected);
  });
});
