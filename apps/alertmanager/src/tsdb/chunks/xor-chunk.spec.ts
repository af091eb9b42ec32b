import { decodeXorChunk, SAMPLES_PER_CHUNK, XorChunk } from './xor-chunk';

function roundTrip(samples: [number, number, boolean?][]) {
  const chunk = new XorChunk();
  for (const [t, v, stale] of samples) chunk.append(t, v, stale === true);
  const decoded = decodeXorChunk(chunk.bytes(), chunk.length);
  return { chunk, decoded };
}

describe('XorChunk', () => {
  it.each([
    [
      'regular scrapes of a counter',
      Array.from(
        { length: 120 },
        (_, i) => [1_700_000_000_000 + i * 15_000, i * 3] as [number, number],
      ),
    ],
    [
      'jittered timestamps',
      Array.from(
        { length: 50 },
        (_, i) => [i * 15_000 + (i % 3) * 7, Math.sin(i)] as [number, number],
      ),
    ],
    [
      'gaps in every delta-of-delta bucket',
      [0, 1, 10_000, 80_000, 600_000, 5_000_000_000, 5_000_000_001].map(
        (t, i) => [t, i] as [number, number],
      ),
    ],
    [
      'negative timestamps and shrinking deltas',
      [-90_000, -60_000, -59_999, -59_998, 1].map((t) => [t, 1] as [number, number]),
    ],
    [
      'special values',
      [
        [0, Infinity],
        [1, -Infinity],
        [2, -0],
        [3, Number.MAX_VALUE],
        [4, Number.MIN_VALUE],
        [5, 0.1],
        [6, 1e300],
      ] as [number, number][],
    ],
  ])('gives back %s exactly', (_what, samples) => {
    const { decoded } = roundTrip(samples);
    expect([...decoded.t]).toEqual(samples.map(([t]) => t));
    expect([...decoded.v]).toEqual(samples.map(([, v]) => v));
    expect(decoded.stale).toBeUndefined();
  });

  it('keeps NaN and staleness markers apart', () => {
    const { decoded } = roundTrip([
      [0, 1],
      [1, NaN],
      [2, 0, true],
      [3, NaN],
      [4, 2],
    ]);
    expect([...(decoded.stale ?? [])]).toEqual([0, 0, 1, 0, 0]);
    expect(Number.isNaN(decoded.v[1]) && Number.isNaN(decoded.v[3])).toBe(true);
    expect(decoded.v[4]).toBe(2);
  });

  it('stores regular scrapes in under two bytes a sample', () => {
    const samples = Array.from(
      { length: SAMPLES_PER_CHUNK },
      (_, i) => [i * 15_000, 1000 + i * 2] as [number, number],
    );
    const { chunk } = roundTrip(samples);
    expect(chunk.byteLength / SAMPLES_PER_CHUNK).toBeLessThan(2);
  });
});
