// A metric store whose memory does not grow with retention: 10,000 series of the specification's
// families at 15 s, loaded an hour at a time as a server scraping them would write them (ours: by
// a child process, with the hourly checkpoint; Prometheus: pushed through its remote-write receiver, then
// left to compact its head into blocks), 24 h and then 72 h of them. For each span, side by side
// with Debian's `prometheus` when installed:
// - restart: start to `/-/ready`, and resident memory once settled;
// - a 24 h range query over data that is on disk: `rate` and `max_over_time` over all series of a
//   family (aggregated by instance so the answer stays small), median of five runs after one
//   untimed run;
// - ours only: `/-/healthy` worst latency while checkpoints run (a second start, with
//   `--data.maintenance-interval=2s`), and the bytes written in the last hour of the load (log,
//   checkpoint, chunk database) against the compressed chunk bytes of that hour;
// - bytes written per hour of data over the whole load, ours and Prometheus's (its compactions
//   included).
// `SERIES` and `SPANS` (hours, comma-separated) change the size.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  findPeer,
  fmt,
  freePort,
  httpClient,
  latencyStats,
  median,
  repoRoot,
  requireFromRepo,
  skipPeer,
  startServer,
} from './bench-support.mjs';
import { pushStream } from './remote-write.mjs';
import { SampleStream, specSeries } from './spec-metrics.mjs';

const SERIES = Number(process.env.SERIES ?? 10_000);
const SPANS = (process.env.SPANS ?? '24,72').split(',').map(Number);
const STEP_MS = 15_000;
/** When memory is read again after ready, once the servers have settled. */
const SETTLE_MS = Number(process.env.SETTLE_MS ?? 60_000);
const STEPS_PER_HOUR = 3_600_000 / STEP_MS;
const HOUR = 3_600_000;

const { MetricStorage, Labels } = requireFromRepo('./apps/alertmanager/dist/tsdb/index.js');
const bin = join(repoRoot, 'apps', 'alertmanager', 'bin', 'redisx-alertmanager.js');
const silent = { debug() {}, info() {}, warn() {}, error() {}, with: () => silent };
const series = specSeries(SERIES);
const QUERIES = [
  'sum by (instance) (rate(myapp_redis_commands_total[5m]))',
  'max by (instance) (max_over_time(myapp_redis_command_duration_seconds_bucket[1h]))',
];

const writtenBytes = (pid = 'self') =>
  Number(/write_bytes: (\d+)/.exec(readFileSync(`/proc/${pid}/io`, 'utf8'))[1]);
const rssOf = (pid) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) * 1024;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Appends `hours` of samples to a store in `dir`, checkpointing each hour; bytes of the last. */
async function loadOurs(dir, hours, end) {
  const storage = await MetricStorage.open({
    dir,
    retentionMs: 15 * 24 * HOUR,
    syncIntervalMs: 200,
    logger: silent,
  });
  const labels = series.map((s) => Labels.fromRecord(s.labels));
  const stream = new SampleStream(series, end - hours * HOUR, STEP_MS);
  let lastHour = { written: 0, chunkBytes: 0, samples: 0 };
  const writtenAtStart = writtenBytes();
  for (let h = 0; h < hours; h++) {
    const writtenBefore = writtenBytes();
    const diskBefore = storage.diskBytes;
    for (let step = 0; step < STEPS_PER_HOUR; step++) {
      const appender = storage.appender();
      stream.next((i, t, v) => appender.add(labels[i], t, v));
      appender.commit();
      if (step % 20 === 19) await storage.flush();
    }
    await storage.checkpoint(stream.t);
    lastHour = {
      written: writtenBytes() - writtenBefore,
      chunkBytes: storage.diskBytes - diskBefore,
      samples: SERIES * STEPS_PER_HOUR,
    };
  }
  await storage.close();
  return { ...lastHour, perHour: (writtenBytes() - writtenAtStart) / hours };
}

/**
 * Pushes `hours` into a fresh Prometheus hour by hour and waits until its head is compacted; the
 * bytes it wrote per hour of data, compactions included.
 */
async function loadPrometheus(prometheus, dir, hours, end) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const client = httpClient(4);
  const server = await startServer(
    'prometheus',
    prometheus,
    prometheusArgs(dir, port),
    url,
    client,
  );
  try {
    const stream = new SampleStream(series, end - hours * HOUR, STEP_MS);
    for (let h = 0; h < hours; h++) {
      await pushStream(client, url, series, stream, STEPS_PER_HOUR, 8);
    }
    // Its head keeps up to three hours; older data goes to blocks within minutes of arriving.
    for (let i = 0; i < 600; i++) {
      const metrics = (await client.request(`${url}/metrics`)).body.toString();
      const min = Number(/^prometheus_tsdb_head_min_time (\S+)$/m.exec(metrics)?.[1]);
      const max = Number(/^prometheus_tsdb_head_max_time (\S+)$/m.exec(metrics)?.[1]);
      if (max - min <= 3 * HOUR) break;
      await sleep(1000);
    }
    return writtenBytes(server.pid) / hours;
  } finally {
    await server.stop();
    client.close();
  }
}

function prometheusArgs(dir, port) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'prometheus.yml'), 'global:\n  scrape_interval: 1h\n');
  return [
    `--config.file=${join(dir, 'prometheus.yml')}`,
    `--storage.tsdb.path=${join(dir, 'data')}`,
    `--web.listen-address=127.0.0.1:${port}`,
    '--web.enable-remote-write-receiver',
    '--log.level=error',
  ];
}

function oursArgs(dir, port, maintenance = '15m') {
  writeFileSync(join(dir, 'am.yml'), 'route:\n  receiver: none\nreceivers:\n  - name: none\n');
  return [
    bin,
    `--config.file=${join(dir, 'am.yml')}`,
    `--storage.path=${join(dir, 'data')}`,
    `--web.listen-address=127.0.0.1:${port}`,
    `--data.maintenance-interval=${maintenance}`,
    '--log.level=error',
  ];
}

/** Starts a server on its data: time to ready, settled memory, the queries' times (`timed`). */
async function restart(name, cmd, args, port, end, extra, timed = true) {
  const url = `http://127.0.0.1:${port}`;
  const client = httpClient(4);
  const started = process.hrtime.bigint();
  const server = await startServer(name, cmd, args, url, client);
  try {
    while ((await client.request(`${url}/-/ready`)).status !== 200) await sleep(5);
    const readyMs = Number(process.hrtime.bigint() - started) / 1e6;
    await sleep(5000);
    const rss = rssOf(server.pid);
    // Settled: V8 gives back the young generation grown while loading only once the process has
    // allocated little for a while (its memory reducer, 15 to 30 s after start here); Prometheus's
    // Go runtime returns memory on its own schedule too. Both are read again a minute after ready.
    await sleep(SETTLE_MS - 5000);
    const settledRss = rssOf(server.pid);
    const queries = [];
    for (const query of timed ? QUERIES : []) {
      const times = [];
      // One untimed run first (a dashboard sends the same query again and again), then five.
      for (let run = -1; run < 5; run++) {
        const params = new URLSearchParams({
          query,
          start: String((end - 24 * HOUR) / 1000),
          end: String(end / 1000),
          step: '60',
        });
        const t0 = process.hrtime.bigint();
        const res = await client.request(`${url}/api/v1/query_range?${params}`);
        if (run >= 0) times.push(Number(process.hrtime.bigint() - t0) / 1e6);
        const body = JSON.parse(res.body.toString());
        if (body.status !== 'success') throw new Error(`${name}: ${query}: ${body.error}`);
      }
      queries.push(median(times));
    }
    const more = extra ? await extra(client, url) : undefined;
    return { readyMs, rss, settledRss, queries, more };
  } finally {
    await server.stop();
    client.close();
  }
}

/** `/-/healthy` every 10 ms for 12 s while checkpoints run every 2 s. */
async function healthyDuringCheckpoints(client, url) {
  const latencies = [];
  const until = Date.now() + 12_000;
  while (Date.now() < until) {
    const t0 = process.hrtime.bigint();
    await client.request(`${url}/-/healthy`);
    latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
    await sleep(10);
  }
  return latencyStats(latencies);
}

/**
 * Loads our store in a child process (this file with `--load-ours`), so that this process, which
 * then times the restarts, holds no heap of the load whose collection would compete with them.
 */
function loadOursInChild(dir, hours, end) {
  const out = execFileSync(
    process.execPath,
    [fileURLToPath(import.meta.url), '--load-ours', dir, String(hours), String(end)],
    { encoding: 'utf8', maxBuffer: 1 << 20 },
  );
  return JSON.parse(out.trim().split('\n').pop());
}

if (process.argv[2] === '--load-ours') {
  const [dir, hours, end] = process.argv.slice(3);
  console.log(JSON.stringify(await loadOurs(dir, Number(hours), Number(end))));
  process.exit(0);
}

const prometheus = findPeer('prometheus');
if (!prometheus) skipPeer('prometheus', 'not installed (apt-get install prometheus)');
console.log(`${SERIES} series at 15 s, spans ${SPANS.join(' h, ')} h`);
const end = Math.floor(Date.now() / STEP_MS) * STEP_MS;
const rows = [];
for (const hours of SPANS) {
  const work = mkdtempSync(join(tmpdir(), `bench-retention-${hours}h-`));
  try {
    const t0 = Date.now();
    const hour = loadOursInChild(join(work, 'ours', 'data'), hours, end);
    console.log(`${hours} h: ours loaded in ${fmt((Date.now() - t0) / 1000, 0)} s`);
    // Memory and queries as the server runs by default; then checkpoints every 2 s, probed.
    const oursPort = await freePort();
    const ours = await restart(
      'ours',
      process.execPath,
      oursArgs(join(work, 'ours'), oursPort),
      oursPort,
      end,
    );
    const probePort = await freePort();
    const probed = await restart(
      'ours',
      process.execPath,
      oursArgs(join(work, 'ours'), probePort, '2s'),
      probePort,
      end,
      healthyDuringCheckpoints,
      false,
    );
    ours.more = probed.more;
    let theirs;
    let theirHour;
    if (prometheus) {
      const t1 = Date.now();
      theirHour = await loadPrometheus(prometheus, join(work, 'prometheus'), hours, end);
      console.log(`${hours} h: prometheus loaded in ${fmt((Date.now() - t1) / 1000, 0)} s`);
      const port = await freePort();
      theirs = await restart(
        'prometheus',
        prometheus,
        prometheusArgs(join(work, 'prometheus'), port),
        port,
        end,
      );
    }
    rows.push({ hours, ours, theirs, hour, theirHour });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const mib = (bytes) => fmt(bytes / 2 ** 20, 0);
console.log(
  '\nspan   start to ready ms (ours / prometheus)   resident MiB 5 s after ready, and settled (ours / prometheus)',
);
for (const { hours, ours, theirs } of rows) {
  console.log(
    `${String(hours).padStart(3)} h   ${fmt(ours.readyMs, 0).padStart(8)} / ${theirs ? fmt(theirs.readyMs, 0) : '-'}` +
      `${' '.repeat(24)}${mib(ours.rss).padStart(5)} / ${theirs ? mib(theirs.rss) : '-'}` +
      `, settled ${mib(ours.settledRss)} / ${theirs ? mib(theirs.settledRss) : '-'}`,
  );
}
if (rows.length > 1) {
  const first = rows[0];
  const lastRow = rows[rows.length - 1];
  const growth = (key, side) => fmt((lastRow[side][key] / first[side][key] - 1) * 100, 1);
  for (const [key, when] of [
    ['rss', '5 s after ready'],
    ['settledRss', 'settled'],
  ]) {
    console.log(
      `resident memory ${when}, ${first.hours} h -> ${lastRow.hours} h: ours ${growth(key, 'ours')} % (target < 10 %)` +
        (first.theirs ? `, prometheus ${growth(key, 'theirs')} %` : ''),
    );
  }
}
console.log('\n24 h range query at 60 s steps, median ms (ours / prometheus, ratio)');
for (const { hours, ours, theirs } of rows) {
  QUERIES.forEach((query, i) => {
    const peer = theirs?.queries[i];
    console.log(
      `${String(hours).padStart(3)} h  ${fmt(ours.queries[i], 0).padStart(6)} / ${peer ? fmt(peer, 0) : '-'}` +
        `${peer ? `  x${fmt(ours.queries[i] / peer, 2)}` : ''}  ${query}`,
    );
  });
}
for (const { hours, ours, hour, theirHour } of rows) {
  const h = ours.more;
  console.log(
    `${hours} h: /-/healthy during checkpoints p50 ${fmt(h.p50, 1)} / p99 ${fmt(h.p99, 1)} / worst ${fmt(h.worst, 1)} ms (target worst < 100)`,
  );
  console.log(
    `${hours} h: last hour wrote ${mib(hour.written)} MiB for ${mib(hour.chunkBytes)} MiB of chunks ` +
      `(${fmt(hour.written / hour.samples, 2)} bytes/sample written, ${fmt(hour.chunkBytes / hour.samples, 2)} in chunks, ratio ${fmt(hour.written / hour.chunkBytes, 2)}, target <= 1.5)`,
  );
  console.log(
    `${hours} h: written per hour of data over the whole load: ours ${mib(hour.perHour)} MiB` +
      (theirHour === undefined
        ? ''
        : `, prometheus ${mib(theirHour)} MiB (its log, head chunks and compactions), ratio ${fmt(hour.perHour / theirHour, 2)}`),
  );
}
