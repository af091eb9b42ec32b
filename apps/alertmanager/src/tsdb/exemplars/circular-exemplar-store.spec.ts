import { Registry } from 'prom-client';
import { Labels } from '../labels';
import type { SeriesMatcher } from '../queryable';
import { CircularExemplarStore } from './circular-exemplar-store';
import { ExemplarRefusal, type Exemplar } from './exemplar';
import { ExemplarMetrics } from './exemplar-metrics';

/**
 * An exemplar written `series:trace=value@ms`, `@ms` left out for one without its own time
 * (it then takes `t`, the scrape's time, from `~ms`): `a:x=1@10`, `b:y=2~20`.
 */
function parse(text: string): [Labels, Exemplar] {
  const m = /^(\w+):(\w*)=([^@~]+)([@~])(-?\d+)$/.exec(text);
  if (!m) throw new Error(`bad exemplar ${text}`);
  const [, series, trace, value, mark, ms] = m;
  return [
    Labels.from([
      ['__name__', 'requests_total'],
      ['s', series],
    ]),
    {
      labels: Labels.from([['trace_id', trace]]),
      value: Number(value),
      timestampMs: Number(ms),
      hasTimestamp: mark === '@',
    },
  ];
}

/** The store's exemplars, oldest written first, in the same notation. */
function show(store: CircularExemplarStore): string[] {
  return [...store.entries()].map(
    ([series, e]) =>
      `${series.get('s')}:${e.labels.get('trace_id')}=${e.value}${e.hasTimestamp ? '@' : '~'}${e.timestampMs}`,
  );
}

const newStore = (size: number) => {
  const registry = new Registry();
  const store = new CircularExemplarStore(size, new ExemplarMetrics(registry));
  const metric = async (name: string) =>
    (await registry.getSingleMetric(`prometheus_tsdb_exemplar_${name}`)?.get())?.values[0]?.value;
  return { store, metric };
};

const all: SeriesMatcher[][] = [
  [
    {
      name: '__name__',
      type: '=',
      value: 'requests_total',
      matches: (v) => v === 'requests_total',
    },
  ],
];

describe('CircularExemplarStore', () => {
  it.each([
    [
      'keeps every exemplar while there is room',
      4,
      ['a:x=1@10', 'b:y=2@10', 'a:z=3@20'],
      [],
      ['a:x=1@10', 'b:y=2@10', 'a:z=3@20'],
    ],
    [
      'drops the oldest of the whole ring once full',
      3,
      ['a:x=1@10', 'b:y=2@10', 'a:z=3@20', 'b:w=4@20', 'c:v=5@5'],
      [],
      ['a:z=3@20', 'b:w=4@20', 'c:v=5@5'],
    ],
    [
      'skips a duplicate of the series newest',
      4,
      ['a:x=1@10', 'a:x=1@10'],
      [ExemplarRefusal.duplicate],
      ['a:x=1@10'],
    ],
    [
      'takes an exemplar without time at each scrape as the same one',
      4,
      ['a:x=1~10', 'a:x=1~20'],
      [ExemplarRefusal.duplicate],
      ['a:x=1~10'],
    ],
    [
      'tells the exemplar apart once one side has a time',
      4,
      ['a:x=1~10', 'a:x=1@20'],
      [],
      ['a:x=1~10', 'a:x=1@20'],
    ],
    [
      'refuses an older exemplar of the series',
      4,
      ['a:x=1@20', 'a:y=2@10'],
      [ExemplarRefusal.outOfOrder],
      ['a:x=1@20'],
    ],
    [
      'refuses another exemplar at the same time',
      4,
      ['a:x=1@20', 'a:y=2@20'],
      [ExemplarRefusal.outOfOrder],
      ['a:x=1@20'],
    ],
    [
      'refuses a value changed at the same time',
      4,
      ['a:x=1@20', 'a:x=2@20'],
      [ExemplarRefusal.outOfOrder],
      ['a:x=1@20'],
    ],
    [
      'orders each series by itself',
      4,
      ['a:x=1@20', 'b:y=2@10', 'b:z=3@15'],
      [],
      ['a:x=1@20', 'b:y=2@10', 'b:z=3@15'],
    ],
    [
      'never takes NaN for a duplicate',
      4,
      ['a:x=NaN~10', 'a:x=NaN~20'],
      [],
      ['a:x=NaN~10', 'a:x=NaN~20'],
    ],
    [
      'keeps a series whose only exemplar is replaced by its own newer one',
      1,
      ['a:x=1@10', 'a:y=2@20', 'a:z=3@30'],
      [],
      ['a:z=3@30'],
    ],
    ['keeps nothing with no room', 0, ['a:x=1@10'], [ExemplarRefusal.disabled], []],
  ])('%s', (_name, size, adds, refusals, kept) => {
    const { store } = newStore(size);
    const refused = adds.map((text) => store.add(...parse(text))).filter((r) => r !== undefined);
    expect(refused).toEqual(refusals);
    expect(show(store)).toEqual(kept);
  });

  it('walks each series oldest first through the ring after wrapping', () => {
    const { store } = newStore(4);
    for (const text of [
      'a:p=1@1',
      'b:q=1@1',
      'a:r=2@2',
      'c:s=1@1',
      'b:t=2@2',
      'a:u=3@3',
      'a:v=4@4',
    ])
      store.add(...parse(text));
    const answer = store
      .select(0, 100, all)
      .map((s) => [
        s.seriesLabels.get('s'),
        s.exemplars.map((e) => e.labels.get('trace_id')).join(','),
      ]);
    expect(answer).toEqual([
      ['a', 'u,v'],
      ['b', 't'],
      ['c', 's'],
    ]);
  });

  it.each([
    ['every exemplar in the range', 0, 100, all, ['a:10,20,30', 'b:15']],
    ['a range within one series', 15, 25, all, ['a:20', 'b:15']],
    ['both ends inclusive', 20, 20, all, ['a:20']],
    ['a range before every exemplar', 0, 9, all, []],
    ['a range after every exemplar', 31, 100, all, []],
    [
      'the series of one matcher set',
      0,
      100,
      [[{ name: 's', type: '=', value: 'b', matches: (v: string) => v === 'b' }]],
      ['b:15'],
    ],
    [
      'the series of any matcher set',
      0,
      100,
      [
        [{ name: 's', type: '=', value: 'b', matches: (v: string) => v === 'b' }],
        [{ name: 's', type: '=', value: 'a', matches: (v: string) => v === 'a' }],
      ],
      ['a:10,20,30', 'b:15'],
    ],
    [
      'a missing label as empty',
      0,
      100,
      [[{ name: 'zone', type: '=', value: '', matches: (v: string) => v === '' }]],
      ['a:10,20,30', 'b:15'],
    ],
  ] as [string, number, number, SeriesMatcher[][], string[]][])(
    'selects %s',
    (_name, start, end, sets, expected) => {
      const { store } = newStore(10);
      for (const text of ['b:q=1@15', 'a:p=1@10', 'a:r=2@20', 'a:s=3@30'])
        store.add(...parse(text));
      const answer = store
        .select(start, end, sets)
        .map(
          (s) => `${s.seriesLabels.get('s')}:${s.exemplars.map((e) => e.timestampMs).join(',')}`,
        );
      expect(answer).toEqual(expected);
    },
  );

  it.each([
    [
      'grows, keeping everything',
      3,
      ['a:x=1@1', 'b:y=1@1', 'a:z=2@2', 'b:w=2@2'],
      6,
      ['b:y=1@1', 'a:z=2@2', 'b:w=2@2'],
    ],
    ['grows a ring that never filled', 4, ['a:x=1@1', 'b:y=1@1'], 8, ['a:x=1@1', 'b:y=1@1']],
    [
      'shrinks, keeping the newest',
      4,
      ['a:x=1@1', 'b:y=1@1', 'a:z=2@2', 'b:w=2@2', 'c:v=1@1'],
      2,
      ['b:w=2@2', 'c:v=1@1'],
    ],
    [
      'shrinks a ring that never filled',
      10,
      ['a:x=1@1', 'b:y=1@1', 'a:z=2@2'],
      2,
      ['b:y=1@1', 'a:z=2@2'],
    ],
    ['empties to nothing', 4, ['a:x=1@1'], 0, []],
    ['keeps the same size as it is', 4, ['a:x=1@1', 'b:y=1@1'], 4, ['a:x=1@1', 'b:y=1@1']],
  ])('resizes: %s', (_name, size, adds, newSize, kept) => {
    const { store } = newStore(size);
    for (const text of adds) store.add(...parse(text));
    store.resize(newSize);
    expect(store.capacity).toBe(newSize);
    expect(show(store)).toEqual(kept);
  });

  it('goes on after a resize: series links and order checks are kept', () => {
    const { store } = newStore(4);
    for (const text of ['a:x=1@10', 'b:y=1@10', 'a:z=2@20']) store.add(...parse(text));
    store.resize(2);
    expect(store.add(...parse('a:w=3@15'))).toBe(ExemplarRefusal.outOfOrder);
    expect(store.add(...parse('a:w=3@30'))).toBeUndefined();
    expect(show(store)).toEqual(['a:z=2@20', 'a:w=3@30']);
    expect(store.select(0, 100, all).map((s) => s.exemplars.length)).toEqual([2]);
  });

  it('starts keeping exemplars when a disabled store is given room', () => {
    const { store } = newStore(0);
    store.resize(2);
    store.add(...parse('a:x=1@1'));
    expect(show(store)).toEqual(['a:x=1@1']);
  });

  it.each([
    ['128 characters', 'trace_id', 'x'.repeat(120), undefined],
    ['129 characters', 'trace_id', 'x'.repeat(121), ExemplarRefusal.labelLength],
    ['characters, not bytes', 'trace_id', 'é'.repeat(120), undefined],
    ['a character beyond the BMP as one', 'trace_id', '😀'.repeat(120), undefined],
  ])('limits the label set to %s', (_name, name, value, refusal) => {
    const { store } = newStore(2);
    const series = Labels.from([['__name__', 'a_total']]);
    const exemplar = {
      labels: Labels.from([[name, value]]),
      value: 1,
      timestampMs: 1,
      hasTimestamp: true,
    };
    expect(store.add(series, exemplar)).toBe(refusal);
  });

  it('counts as Prometheus does', async () => {
    const { store, metric } = newStore(3);
    expect(await metric('max_exemplars')).toBe(3);
    for (const text of ['a:x=1@10', 'a:x=1@10', 'b:y=1@5']) store.add(...parse(text));
    // A check before appending, as a scrape makes, counts nothing.
    expect(store.validate(...parse('a:y=2@1'))).toBe(ExemplarRefusal.outOfOrder);
    expect(await metric('out_of_order_exemplars_total')).toBe(0);
    expect(store.add(...parse('a:y=2@1'))).toBe(ExemplarRefusal.outOfOrder);
    expect(await metric('out_of_order_exemplars_total')).toBe(1);
    expect(await metric('exemplars_appended_total')).toBe(2);
    expect(await metric('exemplars_in_storage')).toBe(2);
    expect(await metric('series_with_exemplars_in_storage')).toBe(2);
    expect(await metric('last_exemplars_timestamp_seconds')).toBe(0.01);
    for (const text of ['c:z=1@30', 'c:w=1@40']) store.add(...parse(text));
    // Full: the oldest is the next to go (b's, a's went).
    expect(await metric('exemplars_in_storage')).toBe(3);
    expect(await metric('series_with_exemplars_in_storage')).toBe(2);
    expect(await metric('last_exemplars_timestamp_seconds')).toBe(0.005);
    store.resize(0);
    expect(await metric('max_exemplars')).toBe(0);
    expect(await metric('exemplars_in_storage')).toBe(0);
    expect(await metric('series_with_exemplars_in_storage')).toBe(0);
  });
});

describe('ExemplarAppender', () => {
  it('checks each exemplar as it comes and stores them at commit', () => {
    const { store } = newStore(4);
    store.add(...parse('a:x=1@10'));
    const appender = store.appender();
    expect(appender.add(...parse('a:x=1@10'))).toBeUndefined(); // duplicate: dropped quietly
    expect(appender.add(...parse('a:y=2@5'))).toBe(ExemplarRefusal.outOfOrder);
    expect(appender.add(...parse('b:z=1@1'))).toBeUndefined();
    expect(show(store)).toEqual(['a:x=1@10']);
    appender.commit();
    expect(show(store)).toEqual(['a:x=1@10', 'b:z=1@1']);
  });

  it('drops exemplars quietly when the store keeps none', () => {
    const { store } = newStore(0);
    const appender = store.appender();
    expect(appender.add(...parse('a:x=1@10'))).toBeUndefined();
    appender.commit();
    expect(show(store)).toEqual([]);
  });
});
