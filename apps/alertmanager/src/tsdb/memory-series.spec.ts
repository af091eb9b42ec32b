import { Labels } from './labels';
import { SAMPLES_PER_CHUNK } from './chunks/xor-chunk';
import { MemorySeries, SampleRejectedError } from './memory-series';
import { StoreMemory } from './memory/store-memory';

describe('MemorySeries', () => {
  const series = () =>
    new MemorySeries(0, Labels.fromRecord({ __name__: 'up' }), new StoreMemory());

  it('gives back what was appended, in order, within a range', () => {
    const s = series();
    for (let i = 0; i < 100; i++) s.append(i * 15_000, i * 1.5);
    const run = s.samples(30_000, 60_000);
    expect([...run.t]).toEqual([30_000, 45_000, 60_000]);
    expect([...run.v]).toEqual([3, 4.5, 6]);
  });

  it('keeps NaN values and staleness markers apart', () => {
    const s = series();
    s.append(1000, NaN);
    s.append(2000, 0, true);
    s.append(3000, 7);
    const run = s.samples(0, 10_000);
    expect(Number.isNaN(run.v[0])).toBe(true);
    expect([...(run.stale ?? [])]).toEqual([0, 1, 0]);
    expect(run.v[2]).toBe(7);
  });

  it.each([
    ['an older sample', 500, 1, 'out of order sample'],
    ['another value at the same time', 1000, 2, 'duplicate sample for timestamp'],
  ])('refuses %s', (_what, t, v, message) => {
    const s = series();
    s.append(1000, 1);
    expect(() => s.append(t, v)).toThrow(new SampleRejectedError(message));
  });

  it('ignores an exact repeat of the last sample', () => {
    const s = series();
    s.append(1000, 1);
    s.append(1000, 1);
    expect(s.length).toBe(1);
  });

  it('reads the newest samples from its ring and older ones from chunks, alike', () => {
    const s = series();
    for (let i = 0; i < 500; i++) s.append(i * 15_000, i % 7 === 0 ? NaN : i * 1.25, i === 495);
    const fromRing = s.samples(490 * 15_000, 500 * 15_000);
    const decoded = s.samples(400 * 15_000, 500 * 15_000);
    expect([...fromRing.t]).toEqual([...decoded.t].slice(-10));
    expect([...fromRing.v]).toEqual([...decoded.v].slice(-10));
    expect([...(fromRing.stale ?? [])]).toEqual([...(decoded.stale ?? [])].slice(-10));
    expect(fromRing.stale?.[5]).toBe(1);
  });

  it('drops whole chunks that end before a time', () => {
    const s = series();
    const n = SAMPLES_PER_CHUNK;
    for (let i = 0; i < 2.5 * n; i++) s.append(i * 1000, i);
    expect(s.chunkCount).toBe(3);
    expect(s.truncateBefore((n + 10) * 1000)).toBe(true);
    expect(s.length).toBe(1.5 * n);
    expect(s.samples(0, 10_000_000).v[0]).toBe(n);
  });
});
