import { Labels } from '../labels';
import { MemorySeries } from '../memory-series';
import { StoreMemory } from '../memory/store-memory';
import { SAMPLES_PER_CHUNK } from '../chunks/xor-chunk';
import { RecordWriter } from './record-codec';
import { decodeRecord, encodeHeadSeries, inflateRecord, type HeadSeries } from './wal-records';

const up = Labels.fromRecord({ __name__: 'up', job: 'a' });

/** A sample of a history: time, value, and whether it is a staleness marker. */
type Sample = [number, number, boolean?];

const appendAll = (s: MemorySeries, samples: readonly Sample[]) => {
  for (const [t, v, stale] of samples) s.append(t, v, stale ?? false);
};

/** The series' checkpoint entry, written and read back as a restart reads it. */
async function throughCheckpoint(s: MemorySeries): Promise<HeadSeries> {
  const payload = await encodeHeadSeries([
    { id: s.id, labels: s.labels, chunks: s.memoryChunks(), open: s.openChunkState() },
  ]);
  const record = decodeRecord(await inflateRecord(payload));
  if (record.kind !== 'heads') throw new Error(record.kind);
  return record.series[0];
}

const history = (n: number, from = 0): Sample[] =>
  Array.from({ length: n }, (_, i) => [(from + i) * 15_000, Math.sin(i) * 1e3 + i]);

describe('checkpoint records with the open chunk encoder state', () => {
  it.each<[string, Sample[], Sample[]]>([
    ['a few samples', history(3), history(5, 3)],
    ['one sample', history(1), history(4, 1)],
    ['a chunk about to be full', history(SAMPLES_PER_CHUNK - 1), history(3, SAMPLES_PER_CHUNK - 1)],
    ['a full open chunk', history(SAMPLES_PER_CHUNK), history(2, SAMPLES_PER_CHUNK)],
    [
      'a staleness marker last',
      [...history(10), [150_000, 0, true]],
      [
        [150_000, 0, true],
        [165_000, 4],
      ],
    ],
    [
      'values that are not plain numbers',
      [
        [1000, NaN],
        [2000, Infinity],
        [3000, -0],
      ],
      [
        [4000, -Infinity],
        [5000, 1e-300],
      ],
    ],
  ])('%s: a restored series goes on as if it never stopped', async (_, before, after) => {
    const kept = new MemorySeries(0, up, new StoreMemory());
    appendAll(kept, before);
    const saved = await throughCheckpoint(kept);
    expect(saved.open?.count).toBe(before.length);

    const restored = new MemorySeries(0, up, new StoreMemory());
    restored.importChunks(saved.chunks, saved.open);
    expect(restored.length).toBe(kept.length);
    expect(restored.lastTimestamp).toBe(kept.lastTimestamp);

    appendAll(kept, after);
    appendAll(restored, after);
    // The same bytes: the encoder went on exactly where the saved one stood.
    expect(restored.exportChunks()).toEqual(kept.exportChunks());
    const all = [-Infinity, Infinity] as const;
    expect(restored.samples(...all)).toEqual(kept.samples(...all));
    const last = after[after.length - 1][0];
    expect(restored.samples(last - 30_000, last)).toEqual(kept.samples(last - 30_000, last));
  });

  it('restores from chunks alone when the state is not there, as earlier versions wrote', async () => {
    const kept = new MemorySeries(0, up, new StoreMemory());
    appendAll(kept, history(50));
    const restored = new MemorySeries(0, up, new StoreMemory());
    restored.importChunks((await throughCheckpoint(kept)).chunks);
    appendAll(kept, history(3, 50));
    appendAll(restored, history(3, 50));
    expect(restored.exportChunks()).toEqual(kept.exportChunks());
  });

  it.each([
    // Labels repeat across series and deflate to a fraction.
    ['labels alone', 50, 0, 6],
    // Encoded chunks of noisy values deflate by less than a third: a restart would inflate them
    // for little.
    ['chunks of noisy values', 5, SAMPLES_PER_CHUNK * 3, 7],
  ])('writes a record of %s deflated or not by what it saves', async (_, count, n, first) => {
    const memory = new StoreMemory();
    let seed = 1;
    const noise = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const series = Array.from({ length: count }, (_, i) => {
      const s = new MemorySeries(i, Labels.fromRecord({ __name__: 'up', job: `job-${i}` }), memory);
      appendAll(
        s,
        Array.from({ length: n }, (_, k): Sample => [k * 15_000, noise() * 1e6]),
      );
      return { id: s.id, labels: s.labels, chunks: s.memoryChunks(), open: s.openChunkState() };
    });
    const payload = await encodeHeadSeries(series);
    expect(payload[0]).toBe(first);
    const record = decodeRecord(await inflateRecord(payload));
    if (record.kind !== 'heads') throw new Error(record.kind);
    expect(record.series).toEqual(series);
  });

  it('reads a checkpoint record of the earlier layout, without states', () => {
    const w = new RecordWriter();
    w.byte(4);
    w.uvarint(2);
    w.uvarint(7);
    w.byte(1);
    w.labels(up);
    w.uvarint(1);
    w.uvarint(2);
    w.double(1000);
    w.double(2000);
    w.bytes(Uint8Array.of(1, 2, 3));
    w.uvarint(8);
    w.byte(0);
    w.uvarint(0);
    const record = decodeRecord(w.done());
    expect(record).toEqual({
      kind: 'heads',
      series: [
        {
          id: 7,
          labels: up,
          chunks: [{ count: 2, minT: 1000, maxT: 2000, bytes: Uint8Array.of(1, 2, 3) }],
          open: undefined,
        },
        { id: 8, labels: undefined, chunks: [], open: undefined },
      ],
    });
  });

  it('skips the labels of series the reader already knows, and reads the others', async () => {
    const memory = new StoreMemory();
    const a = new MemorySeries(3, up, memory);
    const b = new MemorySeries(4, Labels.fromRecord({ __name__: 'up', job: 'b' }), memory);
    appendAll(a, history(2));
    appendAll(b, history(2));
    const payload = await encodeHeadSeries(
      [a, b].map((s) => ({
        id: s.id,
        labels: s.labels,
        chunks: s.memoryChunks(),
        open: s.openChunkState(),
      })),
    );
    const record = decodeRecord(payload, undefined, (id) => id === 3);
    if (record.kind !== 'heads') throw new Error(record.kind);
    expect(record.series.map((s) => [s.id, s.labels?.get('job'), s.open?.count])).toEqual([
      [3, undefined, 2],
      [4, 'b', 2],
    ]);
  });

  it('refuses a state that reaches past its chunk, so the record counts as damaged', () => {
    const w = new RecordWriter();
    w.byte(7);
    w.uvarint(1);
    w.uvarint(1);
    w.byte(0);
    w.uvarint(1);
    w.uvarint(1);
    w.double(1000);
    w.double(1000);
    w.bytes(Uint8Array.of(0, 0));
    w.byte(1);
    w.uvarint(17);
    w.uvarint(0);
    w.words(0, 0);
    w.byte(0xff);
    w.byte(0);
    expect(() => decodeRecord(w.done())).toThrow('open chunk state without its chunk');
  });
});
