import {
  decodeXorChunk,
  decodeXorChunkInto,
  SAMPLES_PER_CHUNK,
  XorChunk,
  type XorChunkState,
} from './xor-chunk';

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

describe('XorChunk.resume', () => {
  const sequences: [string, [number, number, boolean][]][] = [
    ['a regular counter', Array.from({ length: 30 }, (_, i) => [i * 15_000, i * 3, false])],
    ['one value throughout', Array.from({ length: 30 }, (_, i) => [i * 15_000, 7, false])],
    [
      'jittered times and noisy values',
      Array.from({ length: 30 }, (_, i) => [
        i * 15_000 + ((i * 37) % 11),
        Math.sin(i) * 1e3,
        false,
      ]),
    ],
    [
      'staleness markers and big gaps',
      Array.from({ length: 30 }, (_, i) => [
        i * i * 100_000,
        i % 5 === 0 ? NaN : i / 7,
        i % 5 === 0,
      ]),
    ],
  ];

  it.each(sequences)('goes on after %s as if it had encoded them itself', (_, samples) => {
    for (const k of [1, 2, 3, 10, 29]) {
      const whole = new XorChunk();
      for (const [t, v, stale] of samples) whole.append(t, v, stale);
      const first = new XorChunk();
      for (const [t, v, stale] of samples.slice(0, k)) first.append(t, v, stale);
      const state = {} as XorChunkState;
      const out = { t: new Float64Array(k), v: new Float64Array(k), stale: undefined, length: 0 };
      decodeXorChunkInto(first.view(), k, -Infinity, Infinity, out, state);
      const buffer = new Uint8Array(512);
      buffer.set(first.view());
      const resumed = new XorChunk(buffer);
      resumed.resume(state);
      for (const [t, v, stale] of samples.slice(k)) resumed.append(t, v, stale);
      expect(resumed.bytes()).toEqual(whole.bytes());
      expect([resumed.minT, resumed.maxT, resumed.length]).toEqual([
        whole.minT,
        whole.maxT,
        whole.length,
      ]);
    }
  });
});
