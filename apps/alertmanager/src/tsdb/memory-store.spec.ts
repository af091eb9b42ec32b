import { Labels } from './labels';
import { MemoryStore } from './memory-store';
import { intersectSorted, unionSorted } from './postings';
import type { SeriesMatcher } from './queryable';

type MatchType = SeriesMatcher['type'];

/** A matcher as the query parser builds one: regexes fully anchored. */
const matcher = (name: string, type: MatchType, value: string): SeriesMatcher => {
  const re = new RegExp(`^(?:${value})$`, 's');
  const test =
    type === '=' || type === '!=' ? (v: string) => v === value : (v: string) => re.test(v);
  const negated = type === '!=' || type === '!~';
  return { name, type, value, matches: (v) => test(v) !== negated };
};

describe('MemoryStore selection through postings', () => {
  const store = new MemoryStore();
  const add = (record: Record<string, string>) => store.append(Labels.fromRecord(record), 0, 1);
  add({ __name__: 'http_requests_total', job: 'api', code: '200' });
  add({ __name__: 'http_requests_total', job: 'api', code: '500' });
  add({ __name__: 'http_requests_total', job: 'web', code: '200' });
  add({ __name__: 'up', job: 'api' });
  add({ __name__: 'up', job: 'web', env: 'prod' });

  it.each([
    [
      [['__name__', '=', 'up']],
      ['{__name__="up", job="api"}', '{__name__="up", env="prod", job="web"}'],
    ],
    [
      [
        ['__name__', '=', 'http_requests_total'],
        ['code', '=~', '5..'],
      ],
      ['{__name__="http_requests_total", code="500", job="api"}'],
    ],
    [
      [
        ['job', '=', 'web'],
        ['env', '=', ''],
      ],
      ['{__name__="http_requests_total", code="200", job="web"}'],
    ],
    [
      [
        ['__name__', '=', 'up'],
        ['env', '!=', 'prod'],
      ],
      ['{__name__="up", job="api"}'],
    ],
    [[['__name__', '=~', 'nothing']], []],
  ] as [string[][], string[]][])('%j', (matchers, expected) => {
    const selected = store.select(matchers.map(([n, t, v]) => matcher(n, t as MatchType, v)));
    expect(selected.map((s) => s.labels.toString()).sort()).toEqual([...expected].sort());
  });

  it('returns series in the order they were created, not sorted', () => {
    const names = store.select([matcher('code', '=', '200')]).map((s) => s.labels.toString());
    expect(names).toEqual([
      '{__name__="http_requests_total", code="200", job="api"}',
      '{__name__="http_requests_total", code="200", job="web"}',
    ]);
    const late = new MemoryStore();
    late.append(Labels.fromRecord({ __name__: 'up', job: 'z' }), 0, 1);
    late.append(Labels.fromRecord({ __name__: 'up', job: 'a' }), 0, 1);
    expect(late.select([matcher('__name__', '=', 'up')]).map((s) => s.labels.get('job'))).toEqual([
      'z',
      'a',
    ]);
  });

  it.each([
    [
      [1, 3, 5, 7],
      [3, 4, 5],
      [3, 5],
    ],
    [[], [1], []],
    [
      [1, 2],
      [1, 2],
      [1, 2],
    ],
  ])('intersects %j and %j', (a, b, expected) => {
    expect(intersectSorted(a, b)).toEqual(expected);
  });

  it('unites sorted lists without repeats', () => {
    expect(unionSorted([[1, 4], [2, 4, 9], []])).toEqual([1, 2, 4, 9]);
  });
});
