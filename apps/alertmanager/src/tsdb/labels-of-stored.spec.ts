import { Labels } from './labels';

/** Label sets as a record may hold them; `ofStored` must give what `from` gives for each. */
const stored: [string, [string, string][]][] = [
  [
    'as the store writes them',
    [
      ['__name__', 'up'],
      ['instance', 'a'],
      ['job', 'node'],
    ],
  ],
  [
    'out of order',
    [
      ['job', 'node'],
      ['__name__', 'up'],
      ['instance', 'a'],
    ],
  ],
  [
    'a name twice (the last wins)',
    [
      ['__name__', 'up'],
      ['job', 'a'],
      ['job', 'b'],
    ],
  ],
  [
    'an empty value',
    [
      ['__name__', 'up'],
      ['instance', ''],
      ['job', 'node'],
    ],
  ],
  [
    'upper case before lower (Go byte order)',
    [
      ['Zone', 'z'],
      ['__name__', 'up'],
      ['a', '1'],
    ],
  ],
  ['no labels', []],
];

describe('Labels.ofStored', () => {
  it.each(stored)('reads a set %s as Labels.from does', (_, pairs) => {
    const read = Labels.ofStored(
      pairs.map(([n]) => n),
      pairs.map(([, v]) => v),
    );
    const built = Labels.from(pairs);
    expect([read.names, read.values, read.key]).toEqual([built.names, built.values, built.key]);
  });

  it('shares the names of consecutive sets with the same names', () => {
    const names = () => ['__name__', 'instance', 'job'];
    const a = Labels.ofStored(names(), ['up', 'a', 'node']);
    const b = Labels.ofStored(names(), ['up', 'b', 'node']);
    const c = Labels.ofStored(['__name__', 'job'], ['up', 'node']);
    expect(b.names).toBe(a.names);
    expect(c.names).not.toBe(a.names);
    expect([a.get('instance'), b.get('instance'), c.get('instance')]).toEqual(['a', 'b', '']);
  });
});
