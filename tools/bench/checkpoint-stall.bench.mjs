// How long a checkpoint of the metric store holds the event loop and the log's writes: the
// specification's series (`SERIES`, 100,000 by default) at 15 s for `HOURS` (2), loaded in
// process with a checkpoint every 15 minutes of data (the server's default maintenance interval),
// then 15 more minutes and `RUNS` (3) timed checkpoints, each after 15 more minutes of data. While
// each runs, a 1 ms timer measures the worst delay of the event loop, and a small batch is
// committed every 5 ms (as remote writes arriving during it) and timed until it is written.
// Prints, per checkpoint: its time, the worst event-loop delay, and the worst and median time
// from a commit to its write. Under `--expose-gc` (as `run.mjs` starts it) the garbage of the
// fast load is collected before each timed checkpoint, so what is timed is the checkpoint's own.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fmt, latencyStats, requireFromRepo } from './bench-support.mjs';
import { SampleStream, specSeries } from './spec-metrics.mjs';

const SERIES = Number(process.env.SERIES ?? 100_000);
const HOURS = Number(process.env.HOURS ?? 2);
const RUNS = Number(process.env.RUNS ?? 3);
const STEP_MS = 15_000;
const STEPS_PER_CHECKPOINT = (15 * 60_000) / STEP_MS;

const { MetricStorage, Labels } = requireFromRepo('./apps/alertmanager/dist/tsdb/index.js');
const silent = { debug() {}, info() {}, warn() {}, error() {}, with: () => silent };
const series = specSeries(SERIES);
const labels = series.map((s) => Labels.fromRecord(s.labels));
const now = () => Number(process.hrtime.bigint()) / 1e6;

/** Appends `steps` scrapes of every series, one commit each, waiting for the log now and then. */
async function load(storage, stream, steps) {
  for (let step = 0; step < steps; step++) {
    const appender = storage.appender();
    stream.next((i, t, v) => appender.add(labels[i], t, v));
    const { written } = appender.commit();
    if (step % 20 === 19) await written;
  }
}

/** Runs one checkpoint under the probes: its time, the worst loop delay, commit-to-write times. */
async function timedCheckpoint(storage, t) {
  let worstDelay = 0;
  let last = now();
  const probe = setInterval(() => {
    const at = now();
    worstDelay = Math.max(worstDelay, at - last - 1);
    last = at;
  }, 1);
  // A few series get one more sample each time, a millisecond after the last.
  const writes = [];
  const pending = [];
  let tick = 0;
  const appends = setInterval(() => {
    const appender = storage.appender();
    tick++;
    for (let i = 0; i < 100; i++) appender.add(labels[i], t + tick, tick);
    const started = now();
    pending.push(appender.commit().written.then(() => writes.push(now() - started)));
  }, 5);
  const started = now();
  await storage.checkpoint(t);
  const ms = now() - started;
  clearInterval(probe);
  clearInterval(appends);
  await Promise.all(pending);
  return { ms, worstDelay, writes: latencyStats(writes) };
}

const dir = mkdtempSync(join(tmpdir(), 'checkpoint-stall-'));
try {
  const storage = await MetricStorage.open({
    dir,
    retentionMs: 24 * 3_600_000,
    syncIntervalMs: 200,
    logger: silent,
  });
  const end = Date.now() - RUNS * STEPS_PER_CHECKPOINT * STEP_MS;
  const stream = new SampleStream(series, end - HOURS * 3_600_000, STEP_MS);
  const loadStart = now();
  for (let q = 0; q < HOURS * 4; q++) {
    await load(storage, stream, STEPS_PER_CHECKPOINT);
    await storage.checkpoint(stream.t);
  }
  console.log(
    `${SERIES.toLocaleString('en')} series x ${HOURS} h at 15 s loaded in ${fmt((now() - loadStart) / 1000)} s`,
  );
  for (let run = 0; run < RUNS; run++) {
    // The batch the probe commits uses times past the stream's; the next scrape comes after them.
    await load(storage, stream, STEPS_PER_CHECKPOINT);
    globalThis.gc?.();
    const r = await timedCheckpoint(storage, stream.t);
    stream.t += STEP_MS;
    console.log(
      `checkpoint ${run + 1}: ${fmt(r.ms)} ms; worst event-loop delay ${fmt(r.worstDelay)} ms; ` +
        `commit to write: median ${fmt(r.writes.p50)} ms, worst ${fmt(r.writes.worst)} ms ` +
        `(${r.writes.n} commits)`,
    );
  }
  await storage.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
