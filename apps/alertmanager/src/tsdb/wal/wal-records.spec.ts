import { SampleChain } from './sample-chain';
import { decodeRecord, encodeSamples, encodeXorSamples, type SampleBatch } from './wal-records';

/** Encodes batches one after another with one chain, decodes them with another. */
function roundTrip(batches: SampleBatch[]): { decoded: SampleBatch[]; bytes: number } {
  const writer = new SampleChain();
  const reader = new SampleChain();
  let bytes = 0;
  const decoded = batches.map((batch) => {
    const payload = encodeXorSamples(batch, writer);
    if (payload === undefined) throw new Error('not encodable');
    bytes += payload.length;
    const record = decodeRecord(payload, reader);
    if (record.kind !== 'samples') throw new Error(record.kind);
    return record.batch;
  });
  return { decoded, bytes };
}

const batch = (ids: number[], t: number[], v: number[], stale = v.map(() => false)) => ({
  ids,
  t,
  v,
  stale,
});

describe('XOR_SAMPLES records', () => {
  it.each([
    ['one scrape', [batch([0, 1, 2], [1e12, 1e12, 1e12], [1, 2.5, 1e300])]],
    [
      'values that are not plain numbers',
      [batch([5, 3, 9, 4], [7, 7, 7, 7], [NaN, Infinity, -Infinity, -0])],
    ],
    [
      'a staleness marker between values',
      [
        batch([1, 2], [15_000, 15_000], [10, 20]),
        batch([1, 2], [30_000, 30_000], [NaN, 21], [true, false]),
        batch([1, 2], [45_000, 45_000], [10, 22]),
      ],
    ],
    [
      'timestamps that differ, before and after the first',
      [batch([0, 1, 2], [1000, 999, 5000], [1, 1, 1])],
    ],
    ['ids far apart, in any order', [batch([2 ** 30, 0, 77_777], [-5, -5, -5], [0.1, 0.2, 0.3])]],
    [
      'the same series again and again',
      Array.from({ length: 10 }, (_, i) => batch([3], [i * 15_000], [i * 17.25 + 0.5])),
    ],
  ])('%s reads back exactly', (_, batches) => {
    const { decoded } = roundTrip(batches);
    decoded.forEach((got, i) => {
      expect(got.ids).toEqual(batches[i].ids);
      expect(got.t).toEqual(batches[i].t);
      expect(got.stale).toEqual(batches[i].stale);
      got.v.forEach((v, k) => {
        if (!batches[i].stale[k]) expect(Object.is(v, batches[i].v[k])).toBe(true);
      });
    });
  });

  it('gives each record its own bytes, though one buffer is reused to write them', () => {
    const batches = [
      batch([0, 1], [15_000, 15_000], [1, 2]),
      batch([0, 1], [30_000, 30_000], [3, 4]),
      batch([7], [45_000], [5]),
    ];
    const writer = new SampleChain();
    const records = batches.map((b) => encodeXorSamples(b, writer) ?? encodeSamples(b));
    records.push(encodeSamples(batch([9], [60_000], [6])));
    const reader = new SampleChain();
    expect(
      records.map((r) => {
        const record = decodeRecord(r, reader);
        return record.kind === 'samples' ? record.batch.v : record.kind;
      }),
    ).toEqual([[1, 2], [3, 4], [5], [6]]);
  });

  it('takes a few bytes a sample for scrapes of counters, against 17 as plain records', () => {
    const scrapes = Array.from({ length: 40 }, (_, s) =>
      batch(
        Array.from({ length: 100 }, (_, i) => i),
        Array.from({ length: 100 }, () => s * 15_000),
        Array.from({ length: 100 }, (_, i) => 1000 * i + s * (i + 3)),
      ),
    );
    const { bytes } = roundTrip(scrapes);
    const plain = scrapes.reduce((n, b) => n + encodeSamples(b).length, 0);
    expect(bytes / 4000).toBeLessThan(4);
    expect(plain / 4000).toBeGreaterThan(16);
  });

  it('leaves timestamps that are not whole milliseconds to plain records', () => {
    expect(encodeXorSamples(batch([1], [1.5], [1]), new SampleChain())).toBeUndefined();
  });

  it('needs the chain of its log to be read', () => {
    const payload = encodeXorSamples(batch([1], [1], [1]), new SampleChain()) as Buffer;
    expect(() => decodeRecord(payload)).toThrow('samples record outside a log');
  });
});

describe('SampleChain', () => {
  it('keeps far ids apart from the arrays, so a huge id allocates nothing large', () => {
    const chain = new SampleChain();
    const before = process.memoryUsage().arrayBuffers;
    chain.set(2 ** 40, -1, 7);
    chain.set(3, 5, 6);
    expect([chain.high(2 ** 40), chain.low(2 ** 40), chain.high(3), chain.low(3)]).toEqual([
      -1, 7, 5, 6,
    ]);
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(1 << 20);
    chain.reset();
    expect([chain.has(2 ** 40), chain.has(3), chain.high(2 ** 40)]).toEqual([false, false, 0]);
  });
});
