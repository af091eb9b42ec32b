import { cp, mkdir, mkdtemp, readdir, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Registry } from 'prom-client';
import { recordingLogger, type LoggedLine } from '../logging/testing/recording-logger';
import { readFrames } from '../storage';
import { nextTurn } from '../time/next-turn';
import type { CheckpointHook, CheckpointStage } from './checkpoint-stages';
import { Labels } from './labels';
import { MetricStorage } from './metric-storage';

const DAY = 24 * 3_600_000;
const STEP = 15_000;
const shards = Array.from({ length: 40 }, (_, i) =>
  Labels.fromRecord({ __name__: 'latency_seconds', shard: String(i) }),
);

let dir: string;
let lines: LoggedLine[];
/** Called at each stage of the checkpoints of the stores `open` opens. */
let hook: CheckpointHook | undefined;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'metric-checkpoint-'));
  lines = [];
  hook = undefined;
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const open = (at = dir, registry?: Registry) =>
  MetricStorage.open({
    dir: at,
    retentionMs: DAY,
    syncIntervalMs: 5,
    logger: recordingLogger(lines),
    registry,
    checkpointHook: (stage) => hook?.(stage),
  });

/** Appends scrapes `from` to `from + count - 1` of every shard; resolves once they are written. */
async function scrape(storage: MetricStorage, from: number, count: number): Promise<void> {
  let written: Promise<void> = Promise.resolve();
  for (let i = from; i < from + count; i++) {
    const appender = storage.appender();
    // Values whose bits change every time, so each sample record depends on the one before.
    shards.forEach((labels, s) => appender.add(labels, i * STEP, Math.sin(i * (s + 1)) * 1e3));
    written = appender.commit().written;
  }
  await written;
}

/** Every sample of every series, by label set. */
function contents(storage: MetricStorage): Record<string, [number, number][]> {
  const out: Record<string, [number, number][]> = {};
  for (const series of storage.store.all()) {
    const run = series.samples(-Infinity, Infinity);
    out[series.labels.toString()] = [...run.t].map((t, i) => [t, run.v[i]]);
  }
  return out;
}

/**
 * The store's files copied as a process killed now leaves them (every completed write is in
 * them); the chunk database's lock file stays behind, as it belongs to the running store.
 */
async function filesOfAKilledProcess(): Promise<string> {
  const copy = await mkdtemp(join(tmpdir(), 'metric-checkpoint-killed-'));
  await cp(dir, copy, { recursive: true, filter: (source) => !source.endsWith('lock.mdb') });
  return copy;
}

const storeFiles = async (at: string) => (await readdir(at)).filter((f) => f !== 'metrics-chunks');

/** A hook that holds the checkpoint at `stage` until `release` is called. */
function pauseAt(stage: CheckpointStage) {
  let release = (): void => undefined;
  let reached = (): void => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const arrived = new Promise<void>((resolve) => (reached = resolve));
  const pause: CheckpointHook = (at) => {
    if (at !== stage) return;
    reached();
    return gate;
  };
  return { pause, arrived, release };
}

const counted = async (storage: MetricStorage) => {
  const m = storage.checkpointMetrics;
  const value = async (c: typeof m.creations) => (await c.get()).values[0]?.value ?? 0;
  return {
    creations: await value(m.creations),
    failed: await value(m.creationsFailed),
    truncations: await value(m.truncations),
    truncationsFailed: await value(m.truncationsFailed),
  };
};

describe('a checkpoint', () => {
  it('rolls the log first: the snapshot is of the new segment, and the old one goes once it is in place', async () => {
    const storage = await open();
    await scrape(storage, 0, 600);
    const bytes = await storage.checkpoint(600 * STEP);
    const snapshot = readFrames(await readFile(join(dir, 'metrics.snapshot')));
    expect(JSON.parse(snapshot.records[0].toString())).toEqual({ generation: 1 });
    expect(snapshot.validBytes).toBe(bytes);
    expect((await storeFiles(dir)).sort()).toEqual(['metrics-1.log', 'metrics.snapshot']);
    expect(await counted(storage)).toEqual({
      creations: 1,
      failed: 0,
      truncations: 1,
      truncationsFailed: 0,
    });
    await storage.close();
  });

  it('yields to appends while it captures the series; a restart has what both wrote', async () => {
    const many = Array.from({ length: 5000 }, (_, i) =>
      Labels.fromRecord({ __name__: 'many', n: String(i) }),
    );
    const during = Labels.fromRecord({ __name__: 'appended_during_the_checkpoint' });
    const storage = await open();
    for (let i = 0; i < 10; i++) {
      const appender = storage.appender();
      many.forEach((labels, n) => appender.add(labels, i * STEP, n + i));
      await appender.commit().written;
    }
    let appended = 0;
    let running = true;
    const appending = (async () => {
      while (running) {
        await nextTurn();
        await storage.appender().add(during, appended, appended).commit().written;
        appended++;
      }
    })();
    await storage.checkpoint(10 * STEP).finally(() => (running = false));
    await appending;
    // At least a turn for each record of 1,000 series, the slices of the capture.
    const records = readFrames(await readFile(join(dir, 'metrics.snapshot'))).records.length - 1;
    expect(records).toBeGreaterThanOrEqual(5);
    expect(appended).toBeGreaterThanOrEqual(records);
    const before = contents(storage);
    await storage.close();
    const restarted = await open();
    expect(contents(restarted)).toEqual(before);
    expect(restarted.store.get(during)?.length).toBe(appended);
    await restarted.close();
  });
});

describe('a process killed inside a checkpoint', () => {
  // What the directory holds at each point, besides the chunk database.
  it.each<[CheckpointStage, string[]]>([
    ['segment-open', ['metrics-1.log', 'metrics.snapshot']],
    ['rolled', ['metrics-1.log', 'metrics-2.log', 'metrics.snapshot']],
    ['chunk-flush', ['metrics-1.log', 'metrics-2.log', 'metrics.snapshot']],
    [
      'snapshot-written',
      ['metrics-1.log', 'metrics-2.log', 'metrics.snapshot', 'metrics.snapshot.tmp'],
    ],
    ['segments-removal', ['metrics-1.log', 'metrics-2.log', 'metrics.snapshot']],
  ])(
    'at %s: a start replays what it left into every sample acknowledged, before and during it',
    async (stage, files) => {
      const storage = await open();
      await scrape(storage, 0, 600);
      await storage.checkpoint(600 * STEP);
      await scrape(storage, 600, 100);
      const { pause, arrived, release } = pauseAt(stage);
      hook = pause;
      const checkpoint = storage.checkpoint(700 * STEP);
      await arrived;
      // Acknowledged while the checkpoint waits: appends are not held by it.
      await scrape(storage, 700, 50);
      const acknowledged = contents(storage);
      const killed = await filesOfAKilledProcess();
      release();
      await checkpoint;
      await storage.close();
      try {
        expect((await storeFiles(killed)).sort()).toEqual(files);
        const restarted = await open(killed);
        expect(contents(restarted)).toEqual(acknowledged);
        expect(restarted.recovery.ignoredBytes).toBe(0);
        // The unfinished snapshot and the segments the snapshot holds are gone.
        const left = await storeFiles(killed);
        expect(left.filter((f) => f.endsWith('.tmp'))).toEqual([]);
        const generation = restarted.recovery.snapshotGeneration;
        const segments = left.filter((f) => /^metrics-\d+\.log$/.test(f));
        expect(segments.filter((f) => parseInt(f.slice('metrics-'.length)) < generation)).toEqual(
          [],
        );
        // It goes on from there: appends, a checkpoint, another start.
        hook = undefined;
        await scrape(restarted, 750, 10);
        await restarted.checkpoint(760 * STEP);
        await scrape(restarted, 760, 5);
        const later = contents(restarted);
        await restarted.close();
        const again = await open(killed);
        expect(contents(again)).toEqual(later);
        await again.close();
      } finally {
        await rm(killed, { recursive: true, force: true });
      }
    },
  );
});

const eio =
  (at: CheckpointStage): CheckpointHook =>
  (stage) => {
    if (stage === at) throw Object.assign(new Error('EIO: i/o error'), { code: 'EIO' });
  };

/** Makes a step of the next checkpoint fail; returns what takes the fault away. */
type Fault = (dir: string) => Promise<() => Promise<unknown>>;

const failingAt =
  (stage: CheckpointStage): Fault =>
  async () => {
    hook = eio(stage);
    return async () => (hook = undefined);
  };

describe('a checkpoint that fails', () => {
  it.each<[string, Fault, RegExp | undefined, string[]]>([
    [
      'the next segment cannot be created: the log goes on in the current one',
      async (at) => {
        await mkdir(join(at, 'metrics-2.log'));
        return () => rm(join(at, 'metrics-2.log'), { recursive: true });
      },
      /checkpoint failed rolling the log: EISDIR/,
      ['metrics-1.log', 'metrics-2.log', 'metrics.snapshot'],
    ],
    [
      'writing closed chunks fails',
      failingAt('chunk-flush'),
      /checkpoint failed writing closed chunks to disk: EIO/,
      ['metrics-1.log', 'metrics-2.log', 'metrics.snapshot'],
    ],
    [
      'the disk is full while the snapshot is written',
      // The unfinished snapshot is a link to a device where every write fails with ENOSPC.
      async (at) => {
        await symlink('/dev/full', join(at, 'metrics.snapshot.tmp'));
        return async () => undefined;
      },
      /checkpoint failed writing the snapshot: ENOSPC/,
      ['metrics-1.log', 'metrics-2.log', 'metrics.snapshot'],
    ],
    [
      'the written snapshot cannot be put in place',
      failingAt('snapshot-written'),
      /checkpoint failed writing the snapshot: EIO/,
      ['metrics-1.log', 'metrics-2.log', 'metrics.snapshot'],
    ],
    [
      'the old segments cannot be removed: the checkpoint stands',
      failingAt('segments-removal'),
      undefined,
      ['metrics-1.log', 'metrics-2.log', 'metrics.snapshot'],
    ],
  ])(
    'when %s, leaves a store that replays exactly and tries again',
    async (_, fault, error, files) => {
      const registry = new Registry();
      const storage = await open(dir, registry);
      await scrape(storage, 0, 600);
      await storage.checkpoint(600 * STEP);
      await scrape(storage, 600, 100);
      const repair = await fault(dir);
      const checkpoint = storage.checkpoint(700 * STEP);
      if (error) await expect(checkpoint).rejects.toThrow(error);
      else await checkpoint;
      const failures = error ? 1 : 0;
      expect(await counted(storage)).toEqual({
        creations: 2,
        failed: failures,
        truncations: 2 - failures,
        truncationsFailed: 1 - failures,
      });
      expect(await registry.metrics()).toContain(
        `prometheus_tsdb_checkpoint_creations_failed_total ${failures}`,
      );
      expect(lines.filter((l) => l.level === 'error').map((l) => l.msg)).toEqual([
        error
          ? 'Checkpoint failed; the last checkpoint and the log since it are kept, and the next maintenance tries again'
          : 'Removing log segments the checkpoint holds failed',
      ]);
      // Appends go on, acknowledged as ever.
      await scrape(storage, 700, 50);
      const acknowledged = contents(storage);
      expect((await storeFiles(dir)).sort()).toEqual(files);
      await repair();
      const killed = await filesOfAKilledProcess();
      try {
        const restarted = await open(killed);
        expect(contents(restarted)).toEqual(acknowledged);
        expect(restarted.recovery.ignoredBytes).toBe(0);
        await restarted.close();
      } finally {
        await rm(killed, { recursive: true, force: true });
      }
      // Without the fault, the next checkpoint succeeds and leaves its snapshot and one segment.
      await storage.checkpoint(750 * STEP);
      await scrape(storage, 750, 5);
      const later = contents(storage);
      expect((await storeFiles(dir)).filter((f) => f.endsWith('.log')).length).toBe(1);
      await storage.close();
      const restarted = await open();
      expect(contents(restarted)).toEqual(later);
      await restarted.close();
    },
  );
});
