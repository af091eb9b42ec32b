import { appendFile, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { recordingLogger, type LoggedLine } from '../logging/testing/recording-logger';
import { SAMPLES_PER_CHUNK } from './chunks/xor-chunk';
import { Labels } from './labels';
import { frame, readFrames } from '../storage';
import { MemoryStore } from './memory-store';
import { MetricStorage } from './metric-storage';
import { decodeRecord, encodeSnapshotSeries } from './wal/wal-records';
import { SampleChain } from './wal/sample-chain';
import { IndexFeed } from './index-feed';
import { SeriesReplica } from './series-replica';
import { isDiskRef } from './memory/chunk-bytes';

let dir: string;
let lines: LoggedLine[];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'metrics-'));
  lines = [];
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const HOUR = 3_600_000;
const open = (retentionMs = 2 * HOUR, retentionBytes = 0) =>
  MetricStorage.open({
    dir,
    retentionMs,
    retentionBytes,
    syncIntervalMs: 5,
    logger: recordingLogger(lines),
  });
const up = Labels.fromRecord({ __name__: 'up', job: 'redis' });
const errors = Labels.fromRecord({ __name__: 'errors_total', job: 'redis' });

/** Every sample of a series as `[t, value | 'stale']`. */
function samplesOf(storage: MetricStorage, labels: Labels): [number, number | 'stale'][] {
  const series = storage.store.get(labels);
  if (series === undefined) return [];
  const run = series.samples(-Infinity, Infinity);
  return [...run.t].map((t, i) => [t, run.stale?.[i] === 1 ? 'stale' : run.v[i]]);
}

async function appendScrapes(storage: MetricStorage, from: number, count: number): Promise<void> {
  for (let i = from; i < from + count; i++) {
    storage
      .appender()
      .add(up, i * 15_000, 1)
      .add(errors, i * 15_000, i * 2)
      .commit();
  }
  await storage.flush();
}

describe('MetricStorage', () => {
  it('keeps appended samples across a restart', async () => {
    const first = await open();
    await appendScrapes(first, 0, 300);
    first
      .appender()
      .addStale(up, 300 * 15_000)
      .commit();
    await first.close();

    const second = await open();
    expect(second.store.seriesCount).toBe(2);
    expect(samplesOf(second, errors)).toHaveLength(300);
    expect(samplesOf(second, errors)[299]).toEqual([299 * 15_000, 598]);
    expect(samplesOf(second, up)[300]).toEqual([300 * 15_000, 'stale']);
    expect(second.recovery.ignoredBytes).toBe(0);
    await second.close();
  });

  it('cuts off a torn tail and keeps what came before it', async () => {
    const first = await open();
    await appendScrapes(first, 0, 10);
    await first.close();
    const [log] = (await readdir(dir)).filter((f) => f.endsWith('.log'));
    await appendFile(join(dir, log), Buffer.from([0x00, 0x00, 0x00, 0x40, 0x12, 0x34]));

    const second = await open();
    expect(samplesOf(second, errors)).toHaveLength(10);
    expect(second.recovery.ignoredBytes).toBe(6);
    expect(lines.some((l) => l.level === 'warn')).toBe(true);
    // New samples follow the last sound record and survive another restart.
    await appendScrapes(second, 10, 5);
    await second.close();
    const third = await open();
    expect(samplesOf(third, errors)).toHaveLength(15);
    await third.close();
  });

  it('refuses out-of-order samples and says how many', async () => {
    const storage = await open();
    await appendScrapes(storage, 10, 1);
    const result = storage
      .appender()
      .add(errors, 0, 1)
      .add(up, 150_000, 1)
      .add(up, 150_000, 2)
      .commit();
    expect(result.appended).toBe(0);
    expect(Object.fromEntries(result.rejected)).toEqual({
      'out of order sample': 1,
      'duplicate sample for timestamp': 1,
    });
    await storage.close();
  });

  it('checkpoints into a snapshot, dropping what is older than the retention', async () => {
    const first = await open();
    await appendScrapes(first, 0, 1200); // five hours at 15 s
    const old = Labels.fromRecord({ __name__: 'gone', job: 'redis' });
    first.appender().add(old, 0, 1).commit();
    const bytes = await first.checkpoint(1200 * 15_000);
    expect(bytes).toBeGreaterThan(0);
    expect(first.logBytes).toBe(0);
    await appendScrapes(first, 1200, 4);
    await first.close();
    expect((await readdir(dir)).sort()).toEqual([
      'metrics-1.log',
      'metrics-chunks',
      'metrics.snapshot',
    ]);

    const second = await open();
    const kept = samplesOf(second, errors);
    expect(kept[kept.length - 1]).toEqual([1203 * 15_000, 2406]);
    // Whole chunks older than two hours are gone; the rest, and the samples after, are back.
    expect(kept[0][0]).toBeGreaterThanOrEqual(
      1200 * 15_000 - 2 * HOUR - SAMPLES_PER_CHUNK * 15_000,
    );
    expect(kept[0][0]).toBeLessThanOrEqual(1200 * 15_000 - 2 * HOUR);
    expect(second.store.get(old)).toBeUndefined();
    await second.close();
  });
});

/** How many of a series' chunks are on disk and how many in memory. */
function placeOf(storage: MetricStorage, labels: Labels): { disk: number; memory: number } {
  const { table } = storage.store.memory;
  const id = storage.store.get(labels)?.id ?? -1;
  const place = { disk: 0, memory: 0 };
  for (let chunk = table.latest(id); chunk >= 0; chunk = table.previous(chunk)) {
    if (isDiskRef(table.ref(chunk))) place.disk++;
    else place.memory++;
  }
  return place;
}

describe('a commit', () => {
  /** The times of the samples in the log file now, decoded as a restart reads them. */
  async function timesInTheLog(): Promise<number[]> {
    const chain = new SampleChain();
    const times: number[] = [];
    const [log] = (await readdir(dir)).filter((f) => f.endsWith('.log'));
    for (const payload of readFrames(await readFile(join(dir, log))).records) {
      const record = decodeRecord(payload, chain);
      if (record.kind === 'samples') times.push(...record.batch.t);
    }
    return times;
  }

  it('is written when its `written` resolves, without waiting for a timed sync', async () => {
    const storage = await MetricStorage.open({
      dir,
      retentionMs: 2 * HOUR,
      syncIntervalMs: HOUR,
      logger: recordingLogger(lines),
    });
    const results = Array.from({ length: 20 }, (_, i) =>
      storage
        .appender()
        .add(up, i * 15_000, i)
        .commit(),
    );
    // A commit that repeats a sample still on its way to the disk waits for it as well.
    const repeated = storage
      .appender()
      .add(up, 19 * 15_000, 19)
      .commit();
    expect(repeated.appended).toBe(0);
    await repeated.written;
    await Promise.all(results.map((r) => r.written));
    expect(await timesInTheLog()).toEqual(Array.from({ length: 20 }, (_, i) => i * 15_000));
    await storage.close();
  });
});

describe('closed chunks on disk', () => {
  const DAY = 24 * HOUR;

  it('moves closed chunks to disk at a checkpoint; they read back alike, here and after a restart', async () => {
    const first = await open(DAY);
    await appendScrapes(first, 0, 1200); // five hours: four closed chunks and an open one
    const before = samplesOf(first, errors);
    expect(placeOf(first, errors)).toEqual({ disk: 0, memory: 5 });
    await first.checkpoint(1200 * 15_000);
    // The two chunks that ended more than three hours ago are cold: cut from the chain.
    expect(placeOf(first, errors)).toEqual({ disk: 2, memory: 1 });
    expect(first.diskBytes).toBeGreaterThan(0);
    expect(samplesOf(first, errors)).toEqual(before);
    await appendScrapes(first, 1200, 10);
    await first.close();

    const second = await open(DAY);
    // The full open chunk was closed by the samples after the checkpoint: it waits in memory.
    expect(placeOf(second, errors)).toEqual({ disk: 4, memory: 2 });
    const after = samplesOf(second, errors);
    expect(after).toHaveLength(1210);
    expect(after.slice(0, 1200)).toEqual(before);
    await second.close();
  });

  it("after a restart, opens a series' ring once it is read, so that rule windows read without decoding", async () => {
    const first = await open(DAY);
    // Four closed chunks, and one sample in the open chunk: after a checkpoint and a restart
    // the closed ones are on disk and only the open chunk's sample is in memory.
    await appendScrapes(first, 0, 4 * SAMPLES_PER_CHUNK + 1);
    await first.checkpoint(1200 * 15_000);
    await first.close();
    const second = await open(DAY);
    const series = second.store.get(errors);
    if (series === undefined) throw new Error('no series');
    const newest = 4 * SAMPLES_PER_CHUNK * 15_000;
    // Every read of the chunks starts at the series' newest chunk; a read from the ring does not.
    const read = jest.spyOn(second.store.memory.table, 'latest');
    const windows: [number, number][] = [
      [newest - 300_000 + 1, newest], // a rule's [5m] window: decoded, the series has no ring yet
      [newest - 300_000 + 1, newest], // the same window, once a ring is opened: from the ring
      [newest - 240_000, newest], // a shorter one: from the ring
      [newest - 600_000, newest], // a longer one than the ring holds: decoded again
      [newest - 600_000, newest - 300_000], // an older one: decoded
    ];
    const decodedAt: number[] = [];
    for (const [i, [mint, maxt]] of windows.entries()) {
      // What a query thread that read the newest samples from the chunks asks for.
      if (i === 1) {
        second.store.openRings([series.id]);
        await second.store.ringsOpened();
      }
      const calls = read.mock.calls.length;
      const run = series.samples(mint, maxt);
      if (read.mock.calls.length > calls) decodedAt.push(i);
      // What every read answers is what was appended: `errors_total` is 2i at scrape i.
      const expected: [number, number][] = [];
      for (let at = Math.ceil(mint / 15_000); at * 15_000 <= maxt; at++) {
        expected.push([at * 15_000, 2 * at]);
      }
      expect([...run.t].map((t, k) => [t, run.v[k]])).toEqual(expected);
    }
    read.mockRestore();
    expect(decodedAt).toEqual([0, 3, 4]);
    await second.close();
  });

  it('writes what is new at each checkpoint, not the whole store', async () => {
    const storage = await open(DAY);
    const latency = Array.from({ length: 100 }, (_, i) =>
      Labels.fromRecord({ __name__: 'latency_seconds', shard: String(i) }),
    );
    const sizes: number[] = [];
    for (let hour = 0; hour < 6; hour++) {
      for (let i = hour * 240; i < (hour + 1) * 240; i++) {
        const appender = storage.appender();
        latency.forEach((labels, s) => appender.add(labels, i * 15_000, Math.sin(i * s) + s));
        appender.commit();
      }
      sizes.push(await storage.checkpoint((hour + 1) * 240 * 15_000 + 1));
    }
    // Each checkpoint holds the open chunks (and the labels once), however much is on disk.
    expect(Math.max(...sizes.slice(1))).toBeLessThan(2 * Math.min(...sizes));
    expect(storage.diskBytes).toBeGreaterThan(4 * Math.max(...sizes));
    await storage.close();
  });

  it('drops what the retention time no longer keeps from disk, for good', async () => {
    const first = await open(2 * HOUR);
    // A checkpoint an hour: each hour's chunks are a batch, which goes once the retention passes it.
    for (let hour = 0; hour < 4; hour++) {
      await appendScrapes(first, hour * 240, 240);
      await first.checkpoint(-Infinity); // nothing is old enough yet
    }
    const full = first.diskBytes;
    await first.checkpoint(960 * 15_000);
    expect(first.diskBytes).toBeLessThan(full);
    const kept = samplesOf(first, errors);
    await first.close();

    const second = await open(2 * HOUR);
    expect(samplesOf(second, errors)).toEqual(kept);
    expect(kept[0][0]).toBeGreaterThan(960 * 15_000 - 2 * HOUR - SAMPLES_PER_CHUNK * 15_000);
    await second.close();
  });

  it('drops the oldest chunks first when over the retention size', async () => {
    const storage = await open(DAY);
    await appendScrapes(storage, 0, 2400); // ten hours
    await storage.checkpoint(2400 * 15_000);
    const full = storage.diskBytes;
    await storage.close();

    const limited = await open(DAY, Math.floor(full / 2) + storage.logBytes);
    await limited.checkpoint(2400 * 15_000);
    expect(limited.diskBytes).toBeLessThanOrEqual(Math.floor(full / 2));
    const kept = samplesOf(limited, errors);
    // The newest samples stay; the oldest are gone.
    expect(kept[kept.length - 1]).toEqual([2399 * 15_000, 4798]);
    expect(kept[0][0]).toBeGreaterThan(4 * HOUR);
    await limited.close();
  });

  it('serves chunks on disk to a replica of the index, as query threads read them', async () => {
    const storage = await open(DAY);
    await appendScrapes(storage, 0, 1000);
    await storage.checkpoint(1000 * 15_000);
    const replica = new SeriesReplica(storage.store.memory.handles());
    const feed = new IndexFeed(storage.store);
    replica.apply(feed.everything());
    feed.close();
    replica.refresh();
    const [series] = replica.querier().select([
      {
        name: '__name__',
        type: '=',
        value: 'errors_total',
        matches: (v) => v === 'errors_total',
      },
    ]);
    const run = series.samples(-Infinity, Infinity);
    expect([...run.v]).toEqual(samplesOf(storage, errors).map(([, v]) => v));
    await storage.close();
  });
});

describe('a start', () => {
  it('is readable once the chunk database has loaded: a replica started then follows the replay', async () => {
    const first = await open(24 * HOUR);
    await appendScrapes(first, 0, 1000);
    await first.checkpoint(1000 * 15_000);
    const late = Labels.fromRecord({ __name__: 'late', job: 'redis' });
    first
      .appender()
      .add(late, 1000 * 15_000, 7)
      .commit();
    await appendScrapes(first, 1000, 5);
    await first.close();

    let readable: { series: number; replica: SeriesReplica; feed: IndexFeed } | undefined;
    const second = await MetricStorage.open({
      dir,
      retentionMs: 24 * HOUR,
      syncIntervalMs: 5,
      logger: recordingLogger(lines),
      onReadable: (store) => {
        const replica = new SeriesReplica(store.memory.handles());
        // Segments made after the handles reach a reader as the query pool sends them.
        store.memory.onSegment((id, buffer) => replica.adoptSegment(id, buffer));
        const feed = new IndexFeed(store);
        replica.apply(feed.everything());
        readable = { series: store.seriesCount, replica, feed };
      },
    });
    // Called once, with the chunk database's series; the series only in the log came after.
    expect(readable?.series).toBe(2);
    if (readable === undefined) throw new Error('never readable');
    const { replica, feed } = readable;
    const replayed = feed.take();
    if (replayed === undefined) throw new Error('no series came with the replay');
    replica.apply(replayed);
    feed.close();
    replica.refresh();
    const byName = (name: string) =>
      replica
        .querier()
        .select([{ name: '__name__', type: '=', value: name, matches: (v) => v === name }]);
    expect(replica.seriesCount).toBe(3);
    const [series] = byName('errors_total');
    const run = series.samples(-Infinity, Infinity);
    expect([...run.v]).toEqual(samplesOf(second, errors).map(([, v]) => v));
    expect(run.v).toHaveLength(1005);
    expect([...byName('late')[0].samples(-Infinity, Infinity).v]).toEqual([7]);
    await second.close();
  });
});

describe('a damaged chunk database', () => {
  it.each([
    ['cut short', (bytes: Buffer) => bytes.subarray(0, 4096)],
    ['overwritten', (bytes: Buffer) => Buffer.alloc(bytes.length, 0x5a)],
  ])('%s is set aside: the store starts from its checkpoint and log', async (_, damage) => {
    const first = await open(24 * HOUR);
    await appendScrapes(first, 0, 1000);
    await first.checkpoint(1000 * 15_000);
    await appendScrapes(first, 1000, 10);
    await first.close();
    const file = join(dir, 'metrics-chunks', 'data.mdb');
    await writeFile(file, damage(await readFile(file)));

    const second = await open(24 * HOUR);
    expect(lines.some((l) => l.level === 'error' && /chunk database is damaged/.test(l.msg))).toBe(
      true,
    );
    expect((await readdir(dir)).some((f) => f.startsWith('metrics-chunks.damaged-'))).toBe(true);
    // What the checkpoint and log hold is back; the chunks on disk are lost.
    const kept = samplesOf(second, errors);
    expect(kept.slice(-10)).toEqual(
      Array.from({ length: 10 }, (_, i) => [(1000 + i) * 15_000, 2 * (1000 + i)]),
    );
    await appendScrapes(second, 1010, 5);
    await second.checkpoint(1015 * 15_000);
    await second.close();
  });
});

describe('a store of an earlier version', () => {
  it('starts from a checkpoint of every chunk and moves its closed chunks to disk', async () => {
    // What a checkpoint of such a store held: each series with all its chunks.
    const scratch = new MemoryStore();
    for (let i = 0; i < 600; i++) scratch.append(errors, i * 15_000, i * 2);
    const chunks = scratch.get(errors)?.exportChunks() ?? [];
    expect(chunks.length).toBe(3);
    const header = frame(Buffer.from(JSON.stringify({ generation: 1 })));
    const record = frame(encodeSnapshotSeries([{ id: 0, labels: errors, chunks }]));
    await writeFile(join(dir, 'metrics.snapshot'), Buffer.concat([header, record]));

    const storage = await open(24 * HOUR);
    expect(samplesOf(storage, errors)).toEqual(
      Array.from({ length: 600 }, (_, i) => [i * 15_000, i * 2]),
    );
    await storage.checkpoint(600 * 15_000);
    expect(placeOf(storage, errors)).toEqual({ disk: 2, memory: 1 });
    await storage.close();
  });
});
