import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { recordingLogger } from '../../logging/testing/recording-logger';
import { MetricStorage } from '../metric-storage';
import { isDiskRef } from '../memory/chunk-bytes';

/**
 * Runs the writer until it has acknowledged scrape `last` (and checkpointed for at least a
 * second), kills it with SIGKILL; the last scrape acknowledged.
 */
async function killWriterAfter(dir: string, last: number): Promise<number> {
  const child = spawn(process.execPath, [join(__dirname, 'testdata', 'metric-writer.js'), dir], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let ready = 0;
  let acked = -1;
  await new Promise<void>((resolve) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line === 'ready') ready = Date.now();
      const m = /^ack (\d+)$/.exec(line);
      if (m) acked = Number(m[1]);
      const due = acked >= last && Date.now() - ready > 1000;
      if (ready && due && child.exitCode === null && !child.killed) {
        child.kill('SIGKILL');
        resolve();
      }
    });
  });
  await new Promise((resolve) => child.once('exit', resolve));
  return acked;
}

// The durability promise with closed chunks moving to disk: a process killed with SIGKILL while
// it appends, checkpoints and writes chunks loses no scrape it acknowledged, and every chunk it
// left on disk reads back whole. Killed twice, so the second run starts on a recovered store.
it('keeps every acknowledged scrape across SIGKILLs during chunk writes', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'metric-crash-'));
  try {
    for (let round = 0; round < 2; round++) {
      // Each run starts at scrape 0 again: the second one's first scrapes are repeats, ignored.
      const acked = await killWriterAfter(dir, 600 * (round + 1));
      const storage = await MetricStorage.open({
        dir,
        retentionMs: 365 * 24 * 3_600_000,
        syncIntervalMs: 5,
        logger: recordingLogger(),
      });
      expect(storage.store.seriesCount).toBe(200);
      let onDisk = 0;
      for (const series of storage.store.all()) {
        const i = Number(series.labels.get('series'));
        const run = series.samples(-Infinity, Infinity);
        // Every scrape up to the last acknowledged one, each value as written, none twice.
        expect(run.t.length).toBeGreaterThanOrEqual(acked + 1);
        for (let n = 0; n < run.t.length; n++) {
          if (run.t[n] !== n * 10_000 || run.v[n] !== n * 1000 + i) {
            throw new Error(`series ${i}: sample ${n} is (${run.t[n]}, ${run.v[n]})`);
          }
        }
        const { table } = storage.store.memory;
        for (let c = table.latest(series.id); c >= 0; c = table.previous(c)) {
          if (isDiskRef(table.ref(c))) onDisk++;
        }
      }
      expect(onDisk).toBeGreaterThan(0);
      await storage.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}, 60_000);
