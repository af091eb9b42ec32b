import { appendFile, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { recordingLogger, type LoggedLine } from '../logging/testing/recording-logger';
import { SAMPLES_PER_CHUNK } from './chunks/xor-chunk';
import { Labels } from './labels';
import { MetricStorage } from './metric-storage';

let dir: string;
let lines: LoggedLine[];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'metrics-'));
  lines = [];
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const HOUR = 3_600_000;
const open = () =>
  MetricStorage.open({
    dir,
    retentionMs: 2 * HOUR,
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
    expect((await readdir(dir)).sort()).toEqual(['metrics-1.log', 'metrics.snapshot']);

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
