import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { mkdtemp, open, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeWhen, waitFor } from '@redisx/testing';
import type { CheckpointStage } from '../src/tsdb/checkpoint-stages';
import { CHECKPOINT_TEST_HOOK_ENV } from '../src/tsdb/checkpoint-test-hook';
import { writeSample } from './support/remote-write-sample';
import { startServerProcess, type ServerProcess } from './support/server-process';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Answer = { status: string; data: any };

/** Samples sent before a checkpoint reaches its stage, and as many while it waits there. */
const SAMPLES = 15;
const ARGS = ['--web.enable-remote-write-receiver', '--data.maintenance-interval=1s'];
const PAUSED = 'Test hook: the checkpoint paused';
const FAILED = 'Checkpoint failed';

/** Every sample lies within the last few minutes: one range selects them all. */
const start = Date.now() - 5 * 60_000;
let sent = 0;

/**
 * Sends `count` samples of `acknowledged_sample{case}`, one request each, numbered on from the
 * last one sent; their statuses.
 */
async function push(server: ServerProcess, label: string, count: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) {
    // Each sample's value is its number, and its time follows from it.
    const labels = { __name__: 'acknowledged_sample', case: label };
    statuses.push(await writeSample(server.url, labels, sent, start + sent++ * 10));
  }
  return statuses;
}

/** How many samples of each case the server has. */
async function counts(server: ServerProcess): Promise<Record<string, number>> {
  const expr = 'count_over_time(acknowledged_sample[10m])';
  const res = await fetch(
    `${server.url}/api/v1/query?query=${encodeURIComponent(expr)}&time=${Date.now() / 1000}`,
  );
  const answer = (await res.json()) as Answer;
  return Object.fromEntries(
    (answer.data.result as Array<{ metric: { case: string }; value: [number, string] }>).map(
      (r) => [r.metric.case, Number(r.value[1])],
    ),
  );
}

/** The values the server has of `acknowledged_sample{case}`, in time order. */
async function values(server: ServerProcess, label: string): Promise<number[]> {
  const expr = `acknowledged_sample{case="${label}"}[10m]`;
  const res = await fetch(
    `${server.url}/api/v1/query?query=${encodeURIComponent(expr)}&time=${Date.now() / 1000}`,
  );
  const answer = (await res.json()) as Answer;
  const [series] = answer.data.result as Array<{ values: [number, string][] }>;
  return (series?.values ?? []).map(([, v]) => Number(v));
}

const occurrences = (server: ServerProcess, text: string) =>
  server.process.output().split(text).length - 1;

/**
 * A checkpoint rolls the metric log to a new segment first and builds its snapshot while appends
 * go on: the real server, checkpointing every second, is held by the checkpoint's test hook at
 * one stage after another, takes remote-written samples before and while it waits there, and is
 * killed with SIGKILL; started again on the same storage, it has every acknowledged sample.
 */
describe('the metric store checkpoint', () => {
  let dir: string;
  let config: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'am-checkpoint-crash-'));
    config = join(dir, 'alertmanager.yml');
    await writeFile(config, 'route:\n  receiver: none\nreceivers:\n  - name: none\n');
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const STAGES: CheckpointStage[] = [
    'rolled',
    'chunk-flush',
    'snapshot-written',
    'segments-removal',
  ];

  it('loses no acknowledged sample when the process is killed inside it', async () => {
    const storage = join(dir, 'killed');
    for (const stage of STAGES) {
      const server = await startServerProcess(config, ARGS, storage, undefined, {
        [CHECKPOINT_TEST_HOOK_ENV]: `pause:${stage}`,
      });
      try {
        expect(await push(server, stage, SAMPLES)).toEqual(Array(SAMPLES).fill(204));
        await waitFor(`the checkpoint to pause at ${stage}`, () => occurrences(server, PAUSED) > 0);
        // Appends are not held by the checkpoint: each of these is answered while it waits.
        expect(await push(server, stage, SAMPLES)).toEqual(Array(SAMPLES).fill(204));
      } finally {
        await server.process.stop('SIGKILL');
      }
    }

    const server = await startServerProcess(config, ARGS, storage);
    try {
      expect(await counts(server)).toEqual(
        Object.fromEntries(STAGES.map((stage) => [stage, 2 * SAMPLES])),
      );
      // A start removes the unfinished snapshot the kill left.
      expect((await readdir(storage)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    } finally {
      await server.process.stop('SIGTERM');
    }
  }, 120_000);

  it('keeps every acknowledged sample while the disk fails under it, and succeeds once it is back', async () => {
    const storage = join(dir, 'failing');
    const failures: CheckpointStage[] = ['chunk-flush', 'snapshot-written'];
    for (const stage of failures) {
      const server = await startServerProcess(config, ARGS, storage, undefined, {
        [CHECKPOINT_TEST_HOOK_ENV]: `fail:${stage}`,
      });
      try {
        expect(await push(server, stage, SAMPLES)).toEqual(Array(SAMPLES).fill(204));
        // Tried again at each maintenance, failing each time; appends go on meanwhile.
        await waitFor(`two failed checkpoints at ${stage}`, () => occurrences(server, FAILED) >= 2);
        expect(await push(server, stage, SAMPLES)).toEqual(Array(SAMPLES).fill(204));
      } finally {
        await server.process.stop('SIGKILL');
      }
    }
    const expected = Object.fromEntries(failures.map((stage) => [stage, 2 * SAMPLES]));

    const recovered = await startServerProcess(config, ARGS, storage);
    try {
      expect(await counts(recovered)).toEqual(expected);
      // With the disk back, a checkpoint succeeds: one snapshot and one segment are left.
      await waitFor('a checkpoint', async () => {
        const files = await readdir(storage);
        return files.filter((f) => /^metrics-\d+\.log$/.test(f)).length === 1;
      });
      expect(occurrences(recovered, FAILED)).toBe(0);
    } finally {
      await recovered.process.stop('SIGKILL');
    }
    const again = await startServerProcess(config, ARGS, storage);
    try {
      expect(await counts(again)).toEqual(expected);
    } finally {
      await again.process.stop('SIGTERM');
    }
  }, 120_000);
});

/** Why a small tmpfs cannot be mounted here, or undefined when it can. */
function whyNoTmpfs(): string | undefined {
  const at = mkdtempSync(join(tmpdir(), 'am-tmpfs-probe-'));
  try {
    const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', at]);
    if (mounted.status !== 0)
      return `mount -t tmpfs: ${String(mounted.stderr).trim() || mounted.error}`;
    spawnSync('umount', [at]);
    return undefined;
  } finally {
    rmSync(at, { recursive: true, force: true });
  }
}

const noTmpfs = whyNoTmpfs();
const describeWithTmpfs = describeWhen(
  noTmpfs === undefined,
  `full-disk spec skipped: a tmpfs cannot be mounted here (${noTmpfs})`,
);

/** Fills the file system of `dir` until it takes no more bytes; returns the filler's path. */
async function fill(dir: string): Promise<string> {
  const filler = join(dir, 'filler');
  const handle = await open(filler, 'w');
  try {
    for (const size of [1 << 20, 4096, 1]) {
      const block = Buffer.alloc(size, 1);
      try {
        for (;;) await handle.write(block);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      }
    }
  } finally {
    await handle.close().catch(() => undefined);
  }
  return filler;
}

/**
 * The same server on a small tmpfs that is filled up while it runs: remote writes it cannot put
 * in its log are refused (500), its checkpoints fail and the process goes on; once space is
 * back, a checkpoint succeeds, and after a kill -9 every acknowledged sample is back.
 */
describeWithTmpfs('the metric store on a disk that fills up', () => {
  let mountPoint: string;
  let config: string;
  beforeAll(async () => {
    mountPoint = await mkdtemp(join(tmpdir(), 'am-full-disk-'));
    const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64m', 'tmpfs', mountPoint]);
    if (mounted.status !== 0) throw new Error(`mount: ${String(mounted.stderr)}`);
    config = join(mountPoint, 'alertmanager.yml');
    await writeFile(config, 'route:\n  receiver: none\nreceivers:\n  - name: none\n');
  });
  afterAll(async () => {
    spawnSync('umount', [mountPoint]);
    await rm(mountPoint, { recursive: true, force: true });
  });

  it('refuses what it cannot write, keeps what it acknowledged, and checkpoints once space is back', async () => {
    const storage = join(mountPoint, 'storage');
    const server = await startServerProcess(config, ARGS, storage);
    const acknowledged: number[] = [];
    const first = sent;
    /** Sends the next `count` samples of case `full`; their statuses. */
    const send = async (count: number) => {
      const from = sent;
      const statuses = await push(server, 'full', count);
      statuses.forEach((status, i) => status === 204 && acknowledged.push(from + i));
      return statuses;
    };
    try {
      await send(SAMPLES);
      const filler = await fill(mountPoint);
      await waitFor('a checkpoint that fails', () => occurrences(server, FAILED) >= 1, 15_000);
      expect(await send(SAMPLES)).toContain(500);
      await waitFor('another one', () => occurrences(server, FAILED) >= 2, 15_000);
      expect(server.process.child.exitCode).toBeNull();
      await rm(filler);
      expect(await send(SAMPLES)).toEqual(Array(SAMPLES).fill(204));
      await waitFor(
        'a checkpoint that succeeds',
        async () =>
          (await readdir(storage)).filter((f) => /^metrics-\d+\.log$/.test(f)).length === 1,
        15_000,
      );
    } finally {
      await server.process.stop('SIGKILL');
    }
    const restarted = await startServerProcess(config, ARGS, storage);
    try {
      // Every acknowledged sample is back, each once, and nothing that was not sent: a refused
      // one may be back too, written from the log's queue once there was space.
      const back = await values(restarted, 'full');
      expect(back).toEqual([...new Set(back)].sort((a, b) => a - b));
      expect(back.filter((v) => acknowledged.includes(v))).toEqual(acknowledged);
      expect(back.every((v) => Number.isInteger(v) && v >= first && v < sent)).toBe(true);
    } finally {
      await restarted.process.stop('SIGTERM');
    }
  }, 120_000);
});
