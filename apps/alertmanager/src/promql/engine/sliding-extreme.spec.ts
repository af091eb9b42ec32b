import { SlidingExtreme } from './sliding-extreme';

/** What `max_over_time`/`min_over_time` scan: the first extreme, NaN replaced by any sample. */
function scan(f: number[], from: number, to: number, max: boolean): number {
  let best = f[from];
  for (let i = from; i < to; i++) {
    if ((max ? f[i] > best : f[i] < best) || Number.isNaN(best)) best = f[i];
  }
  return best;
}

describe('SlidingExtreme', () => {
  it.each([
    ['rising', [1, 2, 3, 4, 5, 6]],
    ['falling', [6, 5, 4, 3, 2, 1]],
    ['NaN among values', [NaN, 3, NaN, 1, NaN, NaN, 2]],
    ['only NaN', [NaN, NaN, NaN]],
    ['signed zeros', [0, -0, 0, -0, -1, 1]],
    ['infinities', [-Infinity, Infinity, 0, -Infinity]],
    [
      'a noisy series',
      Array.from({ length: 200 }, (_, i) => (i % 17 === 0 ? NaN : Math.sin(i * 1.7) * 10)),
    ],
  ])('answers as the scan for %s, for every window width', (_, values) => {
    const f = new Float64Array(values);
    for (const max of [true, false]) {
      for (let width = 1; width <= Math.min(values.length, 30); width++) {
        const slider = new SlidingExtreme(f, max);
        for (let to = 1; to <= values.length; to++) {
          const from = Math.max(0, to - width);
          expect(Object.is(slider.value(from, to), scan(values, from, to, max))).toBe(true);
        }
      }
    }
  });

  it('answers windows that stay where they are or skip ahead', () => {
    const values = [5, 1, 4, 2, 8, 3];
    const slider = new SlidingExtreme(new Float64Array(values), true);
    expect(slider.value(0, 3)).toBe(5);
    expect(slider.value(0, 3)).toBe(5);
    expect(slider.value(1, 4)).toBe(4);
    expect(slider.value(5, 6)).toBe(3);
    expect(() => slider.value(4, 6)).toThrow('sliding window moved back');
  });
});
