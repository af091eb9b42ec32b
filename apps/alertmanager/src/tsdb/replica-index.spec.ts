import { Labels } from './labels';
import type { SeriesMatcher } from './queryable';
import { ReplicaIndex } from './replica-index';
import { SeriesIndex } from './series-index';

const matcher = (name: string, type: SeriesMatcher['type'], value: string): SeriesMatcher => {
  const re = new RegExp(`^(?:${value})$`);
  const test =
    type === '=' || type === '!=' ? (v: string) => v === value : (v: string) => re.test(v);
  const negated = type === '!=' || type === '!~';
  return { name, type, value, matches: (v) => test(v) !== negated };
};

/** The selectors every state of the index is asked, as `name type value` triples. */
const selectors: [string, SeriesMatcher['type'], string][][] = [
  [['__name__', '=', 'up']],
  [['__name__', '=', 'redis_commands_total']],
  [['__name__', '=~', 'redis_.*']],
  [
    ['__name__', '=~', 'redis_.*'],
    ['cmd', '!=', 'get'],
  ],
  [
    ['__name__', '=', 'redis_commands_total'],
    ['instance', '=~', 'r[0-2]'],
  ],
  [['instance', '!~', 'r1']],
  [['cmd', '=', '']],
  [['cmd', '!=', '']],
  [['cmd', '=~', '.*']],
  [['zone', '=~', 'a|']],
  [['__name__', '=', 'missing']],
  [['missing', '=', 'x']],
];

/** A series of the table's families, numbered. */
function seriesLabels(n: number): Labels {
  const family = n % 3;
  const instance = `r${n % 5}`;
  if (family === 0)
    return Labels.from([
      ['__name__', 'up'],
      ['instance', instance],
    ]);
  const pairs: [string, string][] = [
    ['__name__', family === 1 ? 'redis_commands_total' : 'redis_latency_seconds'],
    ['instance', instance],
    ['cmd', ['get', 'set', 'del'][(n % 7) % 3]],
  ];
  if (n % 4 === 0) pairs.push(['zone', n % 8 === 0 ? 'a' : 'b']);
  return Labels.from(pairs);
}

describe('ReplicaIndex', () => {
  it('selects what the store index selects, in the same order, through adds, drops and compactions', () => {
    const replica = new ReplicaIndex();
    const store = new SeriesIndex<{ id: number; labels: Labels }>();
    const add = (id: number) => {
      const labels = seriesLabels(id);
      store.add({ id, labels });
      replica.add(id, labels.names, labels.values);
    };
    const check = (when: string) => {
      expect({ when, size: replica.size }).toEqual({ when, size: store.size });
      for (const selector of selectors) {
        const matchers = selector.map(([n, t, v]) => matcher(n, t, v));
        const want = store.select(matchers).map((s) => s.id);
        expect({ when, selector, ids: Array.from(replica.select(matchers)) }).toEqual({
          when,
          selector,
          ids: want,
        });
        for (const id of want) {
          const [names, values] = replica.labelsOf(id, []);
          expect(Labels.ofSorted(names, values).key).toBe(store.byId(id)?.labels.key);
        }
      }
      const everything = store.select([matcher('__name__', '=~', '.+')]);
      for (const name of ['__name__', 'instance', 'cmd', 'zone', 'missing']) {
        const want = [...new Set(everything.map((s) => s.labels.get(name)).filter((v) => v))];
        expect({ when, name, values: replica.valuesOf(name).sort() }).toEqual({
          when,
          name,
          values: want.sort(),
        });
      }
    };
    for (let id = 0; id < 400; id++) add(id);
    check('400 added');
    add(7);
    check('an id added twice');
    const odd = Array.from({ length: 200 }, (_, i) => 2 * i + 1);
    store.remove(odd);
    replica.remove(odd);
    check('every odd id dropped (compacted)');
    for (let id = 400; id < 500; id++) add(id);
    check('more added after the compaction');
    const most = Array.from({ length: 480 }, (_, i) => i);
    store.remove(most);
    replica.remove([...most, 1000]);
    check('all but 20 dropped, and an id never added');
  });

  it('shares the names array of consecutive label sets with the same names', () => {
    const replica = new ReplicaIndex();
    replica.add(0, ['__name__', 'job'], ['a', 'x']);
    replica.add(1, ['__name__', 'job'], ['b', 'x']);
    replica.add(2, ['__name__', 'zone'], ['b', 'x']);
    const [first] = replica.labelsOf(0, []);
    const [second, values] = replica.labelsOf(1, first);
    const [third] = replica.labelsOf(2, second);
    expect(second).toBe(first);
    expect(values).toEqual(['b', 'x']);
    expect(third).not.toBe(second);
    expect(third).toEqual(['__name__', 'zone']);
  });
});
