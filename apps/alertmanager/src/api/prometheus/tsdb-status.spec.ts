import { Labels } from '../../tsdb/labels';
import { MemoryStore } from '../../tsdb/memory-store';
import { TsdbStatus } from './tsdb-status';

type Status = {
  headStats: { numSeries: number; numLabelPairs: number };
  seriesCountByMetricName: { name: string; value: number }[];
};

describe('TsdbStatus', () => {
  it.each([
    // Upstream keeps the lists while at most 30 whole seconds old.
    [29_999, false],
    [30_999, false],
    [31_000, true],
  ])('after %d ms, counts a new metric in the lists: %s', async (later, counted) => {
    const store = new MemoryStore();
    let now = 1_700_000_000_000;
    const status = new TsdbStatus(store, { now: () => now });
    store.append(Labels.fromRecord({ __name__: 'a' }), 1, 1);
    await status.answer();
    store.append(Labels.fromRecord({ __name__: 'b' }), 1, 1);
    now += later;
    const answer = JSON.parse((await status.answer()).text) as Status;
    // The series count is read every time.
    expect(answer.headStats.numSeries).toBe(2);
    expect(answer.headStats.numLabelPairs).toBe(counted ? 2 : 1);
    expect(answer.seriesCountByMetricName.map((s) => s.name)).toEqual(counted ? ['a', 'b'] : ['a']);
  });

  it('shares one reading of the store among requests that come together', () => {
    const status = new TsdbStatus(new MemoryStore(), { now: () => 0 });
    expect(status.answer()).toBe(status.answer());
  });
});
