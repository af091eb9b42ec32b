import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open as openLmdb } from 'lmdb';
import { recordingLogger } from '../../logging/testing/recording-logger';
import { SAMPLES_PER_CHUNK } from '../chunks/xor-chunk';
import { Labels } from '../labels';
import { MetricStorage } from '../metric-storage';
import type { SelectedSeries } from '../queryable';
import { IndexFeed } from '../index-feed';
import { SeriesReplica } from '../series-replica';
import { StoredBatch, encodeBatch } from './batch-codec';

const HOUR = 3_600_000;
const STEP = 15_000;
/** Scrapes an hour; a chunk holds an hour too (240 samples at 15 s). */
const PER_HOUR = HOUR / STEP;
const SERIES = Array.from({ length: 12 }, (_, i) =>
  Labels.fromRecord({ __name__: 'requests_total', shard: String(i) }),
);
const value = (shard: number, i: number) => shard * 1_000_000 + i * (shard + 1);

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cold-chunks-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const open = (retentionMs = 24 * HOUR) =>
  MetricStorage.open({ dir, retentionMs, syncIntervalMs: 5, logger: recordingLogger() });

/** Scrapes `from` to `to` (exclusive) of the given shards, then a checkpoint at the last one. */
async function scrapeHours(
  storage: MetricStorage,
  from: number,
  to: number,
  shards = SERIES.map((_, i) => i),
): Promise<void> {
  for (let i = from; i < to; i++) {
    const appender = storage.appender();
    for (const s of shards) appender.add(SERIES[s], i * STEP, value(s, i));
    appender.commit();
  }
  await storage.flush();
  await storage.checkpoint((to - 1) * STEP);
}

/** What a read of `[mint, maxt]` must give for a shard scraped from 0 to `scrapes`. */
function expected(shard: number, scrapes: number, mint: number, maxt: number): number[][] {
  const out: number[][] = [];
  for (let i = Math.max(0, Math.ceil(mint / STEP)); i < scrapes && i * STEP <= maxt; i++) {
    out.push([i * STEP, value(shard, i)]);
  }
  return out;
}

const pairs = (series: SelectedSeries, mint: number, maxt: number) => {
  const run = series.samples(mint, maxt);
  return [...run.t].map((t, i) => [t, run.v[i]]);
};

/** Windows before, across and after the cold boundary of a store scraped for ten hours. */
const WINDOWS: [string, number, number][] = [
  ['everything', -Infinity, Infinity],
  ['the first two hours, cold', 0, 2 * HOUR],
  ['from cold into warm', HOUR + 30 * 60_000, 8 * HOUR],
  ['warm only', 8 * HOUR, 10 * HOUR],
  ['one sample at a chunk edge', 3 * HOUR, 3 * HOUR],
  ['nothing', 20 * HOUR, 21 * HOUR],
];

function seriesOf(storage: MetricStorage, labels: Labels): SelectedSeries {
  const series = storage.store.get(labels);
  if (series === undefined) throw new Error(`no series ${labels.toString()}`);
  return series;
}

/** Chunks linked to a series in memory. */
function chainLength(storage: MetricStorage, labels: Labels): number {
  const { table } = storage.store.memory;
  let n = 0;
  const id = storage.store.get(labels)?.id ?? -1;
  for (let chunk = table.latest(id); chunk >= 0; chunk = table.previous(chunk)) n++;
  return n;
}

function replicaOf(storage: MetricStorage): SeriesReplica {
  const replica = new SeriesReplica(storage.store.memory.handles());
  const feed = new IndexFeed(storage.store);
  replica.apply(feed.everything());
  feed.close();
  replica.refresh();
  return replica;
}

const byShard = (shard: number) => ({
  name: 'shard',
  type: '=' as const,
  value: String(shard),
  matches: (v: string) => v === String(shard),
});

describe('cold chunks', () => {
  it('leave memory once older than the warm window; reads find them on disk, here, after a restart and on a query thread', async () => {
    const first = await open();
    for (let hour = 0; hour < 10; hour++) {
      await scrapeHours(first, hour * PER_HOUR, (hour + 1) * PER_HOUR);
      // The chunks of the last three hours and the open one, whatever the retention holds.
      expect(chainLength(first, SERIES[0])).toBeLessThanOrEqual(5);
    }
    expect(first.store.memory.table.coldBefore()).toBe((10 * PER_HOUR - 1) * STEP - 3 * HOUR);
    const scrapes = 10 * PER_HOUR;
    const check = (read: (shard: number, mint: number, maxt: number) => number[][]) => {
      for (const [, mint, maxt] of WINDOWS) {
        for (const shard of [0, 5, 11]) {
          expect(read(shard, mint, maxt)).toEqual(expected(shard, scrapes, mint, maxt));
        }
      }
    };
    // Read here and on a query thread's replica alike.
    const checkBoth = (storage: MetricStorage) => {
      check((shard, mint, maxt) => pairs(seriesOf(storage, SERIES[shard]), mint, maxt));
      const replica = replicaOf(storage);
      check((shard, mint, maxt) => {
        const [series] = replica.querier().select([byShard(shard)]);
        return pairs(series, mint, maxt);
      });
    };
    checkBoth(first);
    await first.close();

    const second = await open();
    // Start-up links only the batches of recent chunks; the cold ones stay on disk.
    expect(chainLength(second, SERIES[0])).toBeLessThanOrEqual(5);
    checkBoth(second);
    // Scraping goes on after the restart, and the next checkpoint ages what it must.
    await scrapeHours(second, scrapes, scrapes + 2 * PER_HOUR);
    expect(chainLength(second, SERIES[0])).toBeLessThanOrEqual(5);
    const all = pairs(seriesOf(second, SERIES[3]), -Infinity, Infinity);
    expect(all).toEqual(expected(3, scrapes + 2 * PER_HOUR, -Infinity, Infinity));
    await second.close();
  });

  it('refuses samples older than the cold boundary, as Prometheus refuses samples out of its head', async () => {
    const storage = await open();
    await scrapeHours(storage, 0, 6 * PER_HOUR);
    const boundary = storage.store.memory.table.coldBefore();
    const late = Labels.fromRecord({ __name__: 'late_total' });
    const result = storage
      .appender()
      .add(late, boundary - 1, 1)
      .add(late, boundary, 2)
      .commit();
    expect(result.appended).toBe(1);
    expect(Object.fromEntries(result.rejected)).toEqual({ 'out of bounds': 1 });
    await storage.close();
  });

  it('keeps a series that stopped until the retention passes its last sample, across a restart', async () => {
    const first = await open(6 * HOUR);
    await scrapeHours(first, 0, 2 * PER_HOUR); // every shard for two hours
    await scrapeHours(first, 2 * PER_HOUR, 6 * PER_HOUR, [0]); // then shard 0 alone
    // Shard 1's closed chunk is cold now (its full open one stays, as no sample closed it); it
    // is still found and read whole.
    expect(chainLength(first, SERIES[1])).toBe(1);
    expect(pairs(seriesOf(first, SERIES[1]), 0, Infinity)).toEqual(
      expected(1, 2 * PER_HOUR, 0, Infinity),
    );
    await first.close();

    const second = await open(6 * HOUR);
    expect(pairs(seriesOf(second, SERIES[1]), 0, Infinity)).toEqual(
      expected(1, 2 * PER_HOUR, 0, Infinity),
    );
    await scrapeHours(second, 6 * PER_HOUR, 7 * PER_HOUR, [0]);
    expect(second.store.get(SERIES[1])).toBeDefined(); // its last sample is 5 hours old
    await scrapeHours(second, 7 * PER_HOUR, 9 * PER_HOUR, [0]);
    expect(second.store.get(SERIES[1])).toBeUndefined(); // 7 hours: gone
    expect(pairs(seriesOf(second, SERIES[0]), 0, Infinity)[0][0]).toBeGreaterThanOrEqual(
      3 * HOUR - SAMPLES_PER_CHUNK * STEP,
    );
    await second.close();
  });

  it('reads the cold chunks of a series whose recent samples are all it has in memory', async () => {
    const storage = await open();
    await scrapeHours(storage, 0, 2 * PER_HOUR, [4]);
    // Back after four hours with as many samples as the recent ones kept uncompressed.
    await scrapeHours(storage, 6 * PER_HOUR, 6 * PER_HOUR + 32, [4]);
    expect(chainLength(storage, SERIES[4])).toBe(1);
    const run = pairs(seriesOf(storage, SERIES[4]), 0, Infinity);
    expect(run).toHaveLength(2 * PER_HOUR + 32);
    expect(run.slice(0, 2 * PER_HOUR)).toEqual(expected(4, 2 * PER_HOUR, 0, Infinity));
    await storage.close();
  });

  it('reads a chunk once when a read finds it both in its series and through its batch', async () => {
    const storage = await open();
    await scrapeHours(storage, 0, 2 * PER_HOUR);
    // As for a reader that walked the chain just before the chunks were cut: the boundary says
    // they may be cold while the chain still holds them.
    storage.store.memory.table.setColdBefore(10 * HOUR);
    const series = seriesOf(storage, SERIES[2]);
    expect(pairs(series, 0, Infinity)).toEqual(expected(2, 2 * PER_HOUR, 0, Infinity));
    const [replicated] = replicaOf(storage)
      .querier()
      .select([byShard(2)]);
    expect(pairs(replicated, 0, Infinity)).toEqual(expected(2, 2 * PER_HOUR, 0, Infinity));
    await storage.close();
  });

  it('gives batches written before summaries one at start-up, and ages their chunks', async () => {
    const first = await open();
    await scrapeHours(first, 0, 4 * PER_HOUR);
    await first.close();
    const root = openLmdb({ path: join(dir, 'metrics-chunks'), maxDbs: 8, compression: false });
    const summaries = root.openDB<Buffer, number>({
      name: 'summaries',
      keyEncoding: 'uint32',
      encoding: 'binary',
    });
    await summaries.clearAsync();
    await root.close();

    const second = await open();
    await scrapeHours(second, 4 * PER_HOUR, 6 * PER_HOUR);
    expect(chainLength(second, SERIES[0])).toBeLessThanOrEqual(5);
    expect(pairs(seriesOf(second, SERIES[0]), -Infinity, Infinity)).toEqual(
      expected(0, 6 * PER_HOUR, -Infinity, Infinity),
    );
    await second.close();
  });
});

describe('batch summaries', () => {
  const entry = (seriesId: number, minT: number) => ({
    seriesId,
    count: 10,
    minT,
    maxT: minT + 9,
    bytes: { length: 20 },
  });

  it.each([
    ['in series order', [entry(1, 0), entry(1, 10), entry(4, 10)], true],
    [
      'in the order chunks closed (written before batches were sorted)',
      [entry(4, 10), entry(1, 0)],
      false,
    ],
  ])('%s', (_, entries, sorted) => {
    const summary = new StoredBatch(7, encodeBatch(entries)).summarize();
    expect(summary).toEqual({
      first: 7,
      length: entries.length,
      minT: 0,
      maxT: 19,
      samples: 10 * entries.length,
      bytes: 20 * entries.length,
      sorted,
    });
  });
});
