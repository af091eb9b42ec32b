import { sortInSlices } from './sort-in-slices';

describe('sortInSlices', () => {
  const byKey = (a: { key: number }, b: { key: number }) => a.key - b.key;
  it.each([0, 1, 10, 4096, 4097, 10_000, 50_001])('sorts %i items stably, pausing', async (n) => {
    let pauses = 0;
    const items = Array.from({ length: n }, (_, i) => ({ key: (i * 7919) % 1000, at: i }));
    const sorted = await sortInSlices(items, byKey, async () => void pauses++);
    expect(sorted).toEqual([...items].sort(byKey));
    // Stable: equal keys keep their order.
    for (let i = 1; i < sorted.length; i++) {
      if (sorted[i].key === sorted[i - 1].key)
        expect(sorted[i].at).toBeGreaterThan(sorted[i - 1].at);
    }
    if (n > 4096) expect(pauses).toBeGreaterThan(0);
  });
});
