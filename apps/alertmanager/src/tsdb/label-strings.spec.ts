import { detached } from './detached-string';
import { LabelStrings } from './label-strings';
import { Labels } from './labels';
import { MemoryStore } from './memory-store';

const set = (record: Record<string, string>) => Labels.fromRecord(record);

describe('LabelStrings: the label strings of a store, each held once', () => {
  it('gives sets with the same names one names array, and holds each string once', () => {
    const pool = new LabelStrings();
    const sets = ['GET', 'SET', 'GET'].map((command, i) =>
      pool.keep(set({ __name__: 'redis_calls_total', command, instance: `app-${i % 2}` })),
    );
    expect(sets.map((l) => l.toString())).toEqual([
      '{__name__="redis_calls_total", command="GET", instance="app-0"}',
      '{__name__="redis_calls_total", command="SET", instance="app-1"}',
      '{__name__="redis_calls_total", command="GET", instance="app-0"}',
    ]);
    expect(sets[1].names).toBe(sets[0].names);
    expect(sets[2].names).toBe(sets[0].names);
    // Three names, one metric name, two commands, two instances.
    expect(pool.size).toBe(8);
    // A set the pool made is taken as it is.
    expect(pool.keep(sets[1])).toBe(sets[1]);
  });

  it('forgets the strings of dropped series once rebuilt from the live ones', async () => {
    const pool = new LabelStrings();
    const live = pool.keep(set({ __name__: 'up', instance: 'a' }));
    const gone = Array.from({ length: 5000 }, (_, i) =>
      pool.keep(set({ __name__: 'up', instance: `gone-${i}` })),
    );
    expect(pool.wantsRebuild).toBe(true);
    // Slices of no time: the rebuild yields every 256 sets.
    const rebuilt = pool.rebuild([live, ...gone.slice(0, 2000)], 0);
    expect(pool.wantsRebuild).toBe(false);
    // A set kept while the rebuild is under way keeps its strings in the rebuilt pool.
    pool.keep(set({ __name__: 'up', instance: 'during' }));
    await rebuilt;
    expect(pool.size).toBe(2005);
    await pool.rebuild([live]);
    expect(pool.size).toBe(4);
    expect(pool.wantsRebuild).toBe(false);
    // The names array of the live set is the one new sets with its names are given.
    expect(pool.keep(set({ __name__: 'up', instance: 'b' })).names).toBe(live.names);
  });

  it("the store's sets: a series' own when it exists, shared strings when it does not", () => {
    const store = new MemoryStore();
    const series = store.seriesFor(set({ __name__: 'up', job: 'a' }));
    expect(store.kept(set({ job: 'a', __name__: 'up' }))).toBe(series.labels);
    const other = store.kept(set({ __name__: 'up', job: 'b' }));
    expect(other.isKept).toBe(true);
    expect(other.names).toBe(series.labels.names);
    expect(store.seriesFor(other).labels).toBe(other);
  });
});

describe('detached: a copy of a string that does not point into a larger one', () => {
  const body = `${'x'.repeat(100)}myapp_redis_command_duration_seconds_bucket{le="0.5"}${'y'.repeat(100)}`;
  it.each([
    ['a slice of a body', body.slice(100, 148)],
    ['a short string', 'GET'],
    ['non-ASCII text', 'Ümlaut – 東京 🚀 value'],
    ['a lone surrogate, kept as it is', `broken \ud800 surrogate value`],
    ['the empty string', ''],
  ])('%s: the same text', (_what, text) => {
    expect(detached(text)).toBe(text);
  });
});
