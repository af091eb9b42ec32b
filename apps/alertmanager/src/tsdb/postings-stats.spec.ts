import { Labels } from './labels';
import { MemoryStore } from './memory-store';
import { postingsStats, TopStats } from './postings-stats';
import { headStats } from './head-stats';

const stat = (name: string, value: number) => ({ name, value });

describe('TopStats', () => {
  it.each([
    [
      'the largest first',
      [
        ['a', 1],
        ['b', 3],
        ['c', 2],
      ],
      10,
      [stat('b', 3), stat('c', 2), stat('a', 1)],
    ],
    [
      'ties in name order',
      [
        ['b', 2],
        ['c', 2],
        ['a', 2],
      ],
      10,
      [stat('a', 2), stat('b', 2), stat('c', 2)],
    ],
    [
      'only the largest up to the limit',
      [
        ['a', 1],
        ['b', 5],
        ['c', 3],
        ['d', 4],
      ],
      2,
      [stat('b', 5), stat('d', 4)],
    ],
    [
      'the first names of a tie at the cut',
      [
        ['d', 1],
        ['c', 1],
        ['e', 1],
      ],
      2,
      [stat('c', 1), stat('d', 1)],
    ],
  ] as const)('keeps %s', (_, offers, limit, expected) => {
    const top = new TopStats(limit);
    for (const [name, value] of offers) top.offer(value, name);
    expect(top.get()).toEqual(expected);
  });

  it('names a label pair name=value', () => {
    const top = new TopStats(1);
    top.offer(5, 'job', 'api');
    expect(top.get()).toEqual([stat('job=api', 5)]);
  });
});

describe('postingsStats', () => {
  const index = new Map([
    [
      '__name__',
      new Map([
        ['up', [1, 2, 3]],
        ['go_goroutines', [4]],
      ]),
    ],
    [
      'job',
      new Map([
        ['api', [1, 4]],
        ['web', [2]],
        ['db', [3]],
      ]),
    ],
    ['city', new Map([['zürich', [1]]])],
    // Upstream's all-postings key, which is not a label.
    ['', new Map([['', [1, 2, 3, 4]]])],
  ]);

  it.each([
    ['seriesCountByMetricName', [stat('up', 3), stat('go_goroutines', 1)]],
    ['labelValueCountByLabelName', [stat('job', 3), stat('__name__', 2), stat('city', 1)]],
    // Bytes of the values in UTF-8 ("zürich" is 7), not of the names.
    ['memoryInBytesByLabelName', [stat('__name__', 15), stat('job', 8), stat('city', 7)]],
    [
      'seriesCountByLabelValuePair',
      [
        stat('__name__=up', 3),
        stat('job=api', 2),
        stat('__name__=go_goroutines', 1),
        stat('city=zürich', 1),
        stat('job=db', 1),
        stat('job=web', 1),
      ],
    ],
    ['numLabelPairs', 6],
  ] as const)('counts %s as Prometheus 2.42 does', async (key, expected) => {
    const stats = await postingsStats(index, '__name__');
    expect(stats[key]).toEqual(expected);
  });

  it('yields to the event loop after every slice of label pairs', async () => {
    const pause = jest.fn(() => Promise.resolve());
    await postingsStats(index, '__name__', pause, 2);
    expect(pause).toHaveBeenCalledTimes(3);
  });

  it('keeps ten entries per list', async () => {
    const many = new Map([
      ['__name__', new Map(Array.from({ length: 30 }, (_, i) => [`m${i}`, [i]]))],
    ]);
    const stats = await postingsStats(many, '__name__');
    expect(stats.seriesCountByMetricName).toHaveLength(10);
    expect(stats.seriesCountByLabelValuePair).toHaveLength(10);
  });
});

describe('headStats', () => {
  it('gives an empty store the times of an empty head', async () => {
    expect(await headStats(new MemoryStore())).toEqual({
      numSeries: 0,
      chunkCount: 0,
      minTime: Infinity,
      maxTime: -Infinity,
    });
  });

  it('counts series, chunks and the time range in memory', async () => {
    const store = new MemoryStore();
    const a = Labels.fromRecord({ __name__: 'a' });
    for (let t = 0; t < 300; t++) store.append(a, 1_000 + t, t);
    store.append(Labels.fromRecord({ __name__: 'b' }), 500, 1);
    store.seriesFor(Labels.fromRecord({ __name__: 'c' }));
    // 300 samples of `a` fill one chunk of 240 and open a second.
    expect(await headStats(store, () => Promise.resolve(), 1)).toEqual({
      numSeries: 3,
      chunkCount: 3,
      minTime: 500,
      maxTime: 1_299,
    });
    expect((await store.postingsStats('__name__')).seriesCountByMetricName).toEqual([
      stat('a', 1),
      stat('b', 1),
      stat('c', 1),
    ]);
  });
});
