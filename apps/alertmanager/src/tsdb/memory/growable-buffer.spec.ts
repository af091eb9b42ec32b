import { growArray, resizableArray } from './growable-buffer';

describe('resizableArray', () => {
  it.each([
    ['Float64Array', Float64Array],
    ['Int32Array', Int32Array],
    ['Uint8Array', Uint8Array],
  ] as const)('grows a %s in place: the same array, its values kept, new ones zero', (_, Type) => {
    const array = resizableArray(Type, 4, 100);
    array.set([1, 2, 3, 4]);
    const steps: [asked: number, length: number][] = [];
    for (const asked of [3, 5, 9, 60, 100]) {
      growArray(array, asked);
      steps.push([asked, array.length]);
    }
    // Doubling, capped at the maximum; never shrinking.
    expect(steps).toEqual([
      [3, 4],
      [5, 8],
      [9, 16],
      [60, 60],
      [100, 100],
    ]);
    expect(Array.from(array.subarray(0, 6))).toEqual([1, 2, 3, 4, 0, 0]);
    expect(array.every((v, i) => (i < 4 ? v === i + 1 : v === 0))).toBe(true);
  });

  it('refuses to grow past its maximum, naming it', () => {
    const array = resizableArray(Int32Array, 8, 16);
    expect(() => growArray(array, 17)).toThrow('metric store full: 16 entries');
    expect(array.length).toBe(8);
  });
});
