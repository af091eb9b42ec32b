import { IdSet } from './id-set';

describe('IdSet', () => {
  it('holds what was added and not deleted, as a Set of numbers does', () => {
    const ids = new IdSet();
    const model = new Set<number>();
    const steps: [op: 'add' | 'delete', id: number][] = [
      ['add', 0],
      ['add', 31],
      ['add', 32],
      ['add', 100_000],
      ['delete', 31],
      ['delete', 5],
      ['delete', 1 << 30],
      ['add', 31],
      ['add', 2047],
      ['delete', 0],
      ['add', 2048],
    ];
    for (const [op, id] of steps) {
      ids[op](id);
      model[op](id);
      for (const probe of [0, 1, 5, 30, 31, 32, 33, 2047, 2048, 99_999, 100_000, 1 << 30]) {
        expect({ op, id, probe, has: ids.has(probe) }).toEqual({
          op,
          id,
          probe,
          has: model.has(probe),
        });
      }
    }
  });
});
