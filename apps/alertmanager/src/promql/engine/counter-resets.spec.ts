import { CounterResets } from './counter-resets';

function resetsWithin(f: number[], from: number, to: number): boolean {
  for (let i = from + 1; i < to; i++) if (f[i] < f[i - 1]) return true;
  return false;
}

describe('CounterResets', () => {
  it.each([
    {
      name: 'no reset',
      f: [1, 2, 3, 4, 5, 6],
      windows: [
        [0, 3],
        [1, 4],
        [2, 6],
      ],
    },
    {
      name: 'a reset in the middle',
      f: [1, 2, 3, 0, 1, 2, 3],
      windows: [
        [0, 2],
        [0, 3],
        [0, 4],
        [2, 5],
        [3, 6],
        [4, 7],
      ],
    },
    {
      name: 'a reset at the window start is not in it',
      f: [5, 1, 2, 3],
      windows: [
        [0, 2],
        [1, 3],
        [1, 4],
      ],
    },
    { name: 'equal values are no reset', f: [2, 2, 2, 2], windows: [[0, 4]] },
    {
      name: 'windows that skip samples',
      f: [1, 9, 3, 4, 2, 6, 7, 8],
      windows: [
        [0, 1],
        [3, 4],
        [3, 6],
        [6, 8],
      ],
    },
    {
      name: 'empty windows',
      f: [3, 1, 2],
      windows: [
        [0, 0],
        [1, 1],
        [1, 3],
      ],
    },
  ])('$name', ({ f, windows }) => {
    const values = Float64Array.from(f);
    const resets = new CounterResets();
    for (const [from, to] of windows) {
      expect([from, to, resets.anyWithin(values, from, to)]).toEqual([
        from,
        to,
        resetsWithin(f, from, to),
      ]);
    }
  });

  it('answers exactly for every window moving forward over a long series', () => {
    const f: number[] = [];
    let value = 0;
    for (let i = 0; i < 2_000; i++) {
      value = i % 97 === 13 || i % 131 === 7 ? i % 5 : value + (i % 3);
      f.push(value);
    }
    const values = Float64Array.from(f);
    for (const width of [1, 2, 5, 20, 240]) {
      const resets = new CounterResets();
      for (let from = 0; from + width <= f.length; from += 3) {
        if (resets.anyWithin(values, from, from + width) !== resetsWithin(f, from, from + width)) {
          throw new Error(`window [${from}, ${from + width}) of width ${width}`);
        }
      }
    }
  });

  it('never misses a reset when a window moves back', () => {
    const f = [1, 2, 0, 1, 2, 3, 4];
    const values = Float64Array.from(f);
    const resets = new CounterResets();
    expect(resets.anyWithin(values, 3, 7)).toBe(false);
    expect(resets.anyWithin(values, 0, 4)).toBe(true);
    expect(resets.anyWithin(values, 1, 3)).toBe(true);
  });
});
