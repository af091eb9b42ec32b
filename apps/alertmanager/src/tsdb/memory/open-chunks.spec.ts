import { SAMPLES_PER_CHUNK, XorChunk } from '../chunks/xor-chunk';
import { readSeriesSamples } from './chunk-reader';
import { StoreMemory } from './store-memory';

/** Sample `i` of series `s`: irregular times, values that need new windows, NaN and stale ones. */
function sample(s: number, i: number): [number, number, boolean] {
  const t = i * 15_000 + (i % 5 === 4 ? 7 : 0) + s;
  const v = i % 11 === 10 ? NaN : s % 3 === 0 ? i : Math.sin(i + s) * 10 ** (i % 7);
  return [t, v, i % 17 === 16];
}

/** What one encoder of its own writes for the samples `from` <= i < `to` of series `s`. */
function alone(s: number, from: number, to: number): Uint8Array {
  const chunk = new XorChunk();
  for (let i = from; i < to; i++) chunk.append(...sample(s, i));
  return chunk.bytes();
}

describe('OpenChunks: every open chunk of a store encoded by one encoder, its state in typed arrays', () => {
  it.each([
    { what: 'a few series, a few samples each, interleaved', series: 3, samples: 5 },
    { what: 'series that outgrow their first slots', series: 4, samples: 200 },
    { what: 'more open chunks than the arrays first hold', series: 1500, samples: 3 },
  ])('$what: the bytes one encoder per chunk would write', ({ series, samples }) => {
    const memory = new StoreMemory();
    const open = Array.from({ length: series }, (_, s) => memory.open.open(s, sample(s, 0)[0], -1));
    for (let i = 0; i < samples; i++) {
      for (let s = 0; s < series; s++) memory.open.append(open[s], ...sample(s, i));
    }
    for (let s = 0; s < series; s++) {
      expect(memory.open.length(open[s])).toBe(samples);
      expect([...memory.open.view(open[s])]).toEqual([...alone(s, 0, samples)]);
      // Readers see every sample, published as appended.
      const run = readSeriesSamples(memory.table, memory.bytes, s, -Infinity, Infinity);
      expect(run.t.length).toBe(samples);
    }
  });

  it('seals a full chunk and gives its entry to the next chunk opened', () => {
    const memory = new StoreMemory();
    const first = memory.open.open(0, 0, -1);
    for (let i = 0; i < SAMPLES_PER_CHUNK; i++) memory.open.append(first, ...sample(0, i));
    expect(memory.open.isFull(first)).toBe(true);
    const sealedAs = memory.open.chunk(first);
    memory.open.seal(first);
    expect([
      ...memory.bytes
        .from(memory.table.ref(sealedAs))
        .subarray(0, memory.table.byteLength(sealedAs)),
    ]).toEqual([...alone(0, 0, SAMPLES_PER_CHUNK)]);
    const next = memory.open.open(0, sample(0, SAMPLES_PER_CHUNK)[0], sealedAs);
    expect(next).toBe(first);
    expect(memory.open.length(next)).toBe(0);
    memory.open.append(next, ...sample(0, SAMPLES_PER_CHUNK));
    expect([...memory.open.view(next)]).toEqual([
      ...alone(0, SAMPLES_PER_CHUNK, SAMPLES_PER_CHUNK + 1),
    ]);
  });

  it('resumes a chunk where its saved state stands, and goes on as if never stopped', () => {
    const before = new StoreMemory();
    const chunk = before.open.open(0, 0, -1);
    for (let i = 0; i < 100; i++) before.open.append(chunk, ...sample(0, i));
    const saved = { bytes: before.open.view(chunk).slice(), state: before.open.state(chunk) };
    const after = new StoreMemory();
    const resumed = after.open.open(0, saved.state.minT, -1, saved);
    for (let i = 100; i < 150; i++) after.open.append(resumed, ...sample(0, i));
    expect([...after.open.view(resumed)]).toEqual([...alone(0, 0, 150)]);
    expect(after.open.state(resumed)).toMatchObject({ count: 150, maxT: sample(0, 149)[0] });
  });
});
