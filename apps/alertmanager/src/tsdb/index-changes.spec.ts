import { deserialize, serialize } from 'node:v8';
import { forEachCreated, IndexChangesWriter, type IndexChanges } from './index-changes';

type Series = [id: number, names: readonly string[], values: string[]];

/** What a reader gets back, after the changes crossed a thread as a message would. */
function readBack(changes: IndexChanges): { created: Series[]; dropped: number[] } {
  const crossed = deserialize(serialize(changes)) as IndexChanges;
  const created: Series[] = [];
  forEachCreated(crossed, (id, names, values) => created.push([id, names, values]));
  return { created, dropped: [...crossed.dropped] };
}

const bucket = (id: number, le: string): Series => [
  id,
  ['__name__', 'instance', 'le'],
  ['latency_bucket', 'app-1', le],
];

describe('IndexChanges: the index as it crosses to a query thread', () => {
  it.each<[string, Series[], number[]]>([
    ['nothing', [], []],
    ['one series', [[7, ['__name__', 'job'], ['up', 'node']]], []],
    ['a series with no labels', [[3, [], []]], []],
    ['series and drops', [bucket(1, '0.1'), bucket(2, '+Inf')], [0, 5]],
    ['drops only', [], [4, 2, 9]],
    [
      'unicode and empty-looking strings',
      [[1, ['__name__', 'path'], ['http_requests_total', '/caf\u00e9/\u{1f600}']]],
      [],
    ],
    [
      'more numbers than the first buffer holds',
      Array.from({ length: 300 }, (_, i) => bucket(i, String(i))),
      [],
    ],
    ['ids past 2^30', [[2 ** 30 + 5, ['__name__'], ['x']]], [2 ** 31 - 1]],
  ])('%s: read back as written', (_, series, dropped) => {
    const writer = new IndexChangesWriter();
    for (const [id, names, values] of series) writer.add(id, names, values);
    for (const id of dropped) writer.drop(id);
    expect(writer.empty).toBe(series.length === 0 && dropped.length === 0);
    expect(readBack(writer.finish())).toEqual({ created: series, dropped });
  });

  it('gives consecutive series with the same names one array, and others their own', () => {
    const writer = new IndexChangesWriter();
    writer.add(1, ['__name__', 'instance', 'le'], ['a_bucket', 'x', '1']);
    writer.add(2, ['__name__', 'instance', 'le'], ['a_bucket', 'x', '2']);
    writer.add(3, ['__name__', 'instance', 'path'], ['b', 'x', '/']);
    writer.add(4, ['__name__', 'job'], ['c', 'y']);
    writer.add(5, ['__name__', 'job'], ['c', 'z']);
    const { created } = readBack(writer.finish());
    const names = created.map(([, n]) => n);
    expect([names[1] === names[0], names[2] === names[1], names[4] === names[3]]).toEqual([
      true,
      false,
      true,
    ]);
    expect(names).toEqual([
      ['__name__', 'instance', 'le'],
      ['__name__', 'instance', 'le'],
      ['__name__', 'instance', 'path'],
      ['__name__', 'job'],
      ['__name__', 'job'],
    ]);
  });

  it('sends each string once, and a reader shares it between series', () => {
    const writer = new IndexChangesWriter();
    for (let i = 0; i < 100; i++) {
      const [, names, values] = bucket(i, i % 2 ? '1' : '+Inf');
      writer.add(i, names, values);
    }
    const changes = writer.finish();
    expect([...changes.strings].sort()).toEqual(
      ['+Inf', '1', '__name__', 'app-1', 'instance', 'latency_bucket', 'le'].sort(),
    );
    expect(changes.created.length).toBe(100 * (2 + 2 * 3));
  });
});
