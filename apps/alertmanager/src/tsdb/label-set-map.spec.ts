import { LabelSetMap } from './label-set-map';
import { Labels } from './labels';

const set = (...pairs: [string, string][]) => Labels.from(pairs);

/** Two different sets whose content hashes are the same, found among numbered ones. */
function collidingPair(): [Labels, Labels] {
  const byHash = new Map<number, Labels>();
  for (let i = 0; ; i++) {
    const labels = set(['__name__', 'm'], ['i', String(i)]);
    const other = byHash.get(labels.contentHash);
    if (other !== undefined) return [other, labels];
    byHash.set(labels.contentHash, labels);
  }
}

describe('LabelSetMap', () => {
  it.each([
    [set(['a', '1']), set(['a', '1']), true],
    [set(['a', '1'], ['b', '2']), set(['b', '2'], ['a', '1']), true],
    [set(['a', '1'], ['b', '']), set(['a', '1']), true],
    [set(['a', '1']), set(['a', '2']), false],
    [set(['a', '1']), set(['b', '1']), false],
    [set(['a', '1']), set(['a', '1'], ['b', '2']), false],
    [set(['ab', 'c']), set(['a', 'bc']), false],
    [set(['a', 'b\xffc']), set(['a', 'b'], ['c', '']), false],
    [Labels.EMPTY, set(), true],
  ])('finds %s by %s: %s', (stored, asked, found) => {
    const map = new LabelSetMap<Labels>((l) => l);
    map.set(stored);
    expect(map.get(asked) === stored).toBe(found);
    expect(stored.equals(asked)).toBe(found);
    if (found) expect(stored.contentHash).toBe(asked.contentHash);
  });

  it('keeps sets whose hashes collide apart, through adds, replacements and deletes', () => {
    const [a, b] = collidingPair();
    expect(a.contentHash).toBe(b.contentHash);
    const map = new LabelSetMap<{ labels: Labels; n: number }>((v) => v.labels);
    map.set({ labels: a, n: 1 });
    map.set({ labels: b, n: 2 });
    expect([map.size, map.get(a)?.n, map.get(b)?.n]).toEqual([2, 1, 2]);
    map.set({ labels: set(...b.names.map((n, i): [string, string] => [n, b.values[i]])), n: 3 });
    expect([map.size, map.get(a)?.n, map.get(b)?.n]).toEqual([2, 1, 3]);
    map.delete(a);
    expect([map.size, map.get(a), map.get(b)?.n]).toEqual([1, undefined, 3]);
    map.delete(a);
    map.set({ labels: a, n: 4 });
    expect([...map.values()].map((v) => v.n).sort()).toEqual([3, 4]);
    map.delete(b);
    map.delete(a);
    expect([map.size, [...map.values()]]).toEqual([0, []]);
  });
});
