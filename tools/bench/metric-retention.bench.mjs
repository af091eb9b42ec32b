// The metric store at production scale, as a crashed server meets it: the real server and Debian's
// `prometheus` side by side, each loaded through its remote-write receiver with the same samples of
// the specification's families at 15 s, then killed with SIGKILL and started again on its data.
// Ours is loaded, then started checkpointing every 2 s and given half a default maintenance interval
// of samples more (30 steps) after a checkpoint: the log a kill at a random moment leaves. Prometheus is
// loaded and left to compact its head into blocks, as it runs. After the kill, for each server:
// - start to `/-/ready` (ours replays its checkpoint and log, Prometheus its blocks and WAL);
// - resident memory 5 s after ready, settled (`SETTLE_MS` after ready, 60 s by default), and after
//   the queries (which start query threads, each with its heap and copy of the index);
// - the first query after the start (once settled), then the median of five more: range queries
//   over the span (`rate` and `max_over_time` of a family, aggregated by instance);
// - ours only: `/-/healthy` worst latency while checkpoints run (one more start, checkpointing every
//   2 s), the server otherwise as by default.
// `CASES` (series x hours, comma-separated; default `10000x24,100000x2`) picks the sizes.
// `STARTS=n` adds n more starts of each server after a kill -9, taken in turns, each on a copy of
// the data its kill left (so every start replays the same log), killed 5 s after ready: the median
// and each start to ready and resident memory 5 s after ready. `QUERIES=0` leaves out the first
// starts (settling, queries, the checkpoint probe) to measure the starts alone; each start also
// reports the CPU seconds and page faults the server took to ready, and for ours how long Node's
// main thread ran and how long it waited for a core while it could run. `OURS_MMAP_THRESHOLDS`
// (bytes, comma-separated) adds, in each round, a start of ours under each of those glibc `mmap`
// thresholds (its bin lets a caller's `GLIBC_TUNABLES` win). `OURS_NPROC` (counts, comma-separated)
// adds a start of ours as if it had each count of cores (`OMP_NUM_THREADS`, which the bin's `nproc`
// reads: V8's background threads are one fewer, from 1 to 4). `KEEP_DATA=1` keeps each case's
// data (the copies as the kills left them) and prints where.
import { spawnSync } from 'node:child_process';
import { cpSync, writeFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  cpuOf,
  findPeer,
  fmt,
  freePort,
  httpClient,
  latencyStats,
  launchServer,
  median,
  oursCommand,
  rssOf,
  skipPeer,
} from './bench-support.mjs';
import { pushStream } from './remote-write.mjs';
import { SampleStream, specSeries } from './spec-metrics.mjs';

const CASES = (process.env.CASES ?? '10000x24,100000x2').split(',').map((c) => {
  const [series, hours] = c.split('x').map(Number);
  return { series, hours };
});
const STEP_MS = 15_000;
const HOUR = 3_600_000;
/** Steps after ours's last checkpoint before the kill: half of the default 15-minute interval. */
const STEPS_AFTER_CHECKPOINT = 30;
const SETTLE_MS = Number(process.env.SETTLE_MS ?? 60_000);
const STARTS = Number(process.env.STARTS ?? 0);
const THRESHOLDS = (process.env.OURS_MMAP_THRESHOLDS ?? '').split(',').filter(Boolean);
const NPROCS = (process.env.OURS_NPROC ?? '').split(',').filter(Boolean);
const WITH_QUERIES = process.env.QUERIES !== '0';
/** How ours starts (the bin as a program, unless `OURS_NODE_ARGS`); its arguments come apart. */
const [oursCmd] = oursCommand([]);
const QUERIES = [
  'sum by (instance) (rate(myapp_redis_commands_total[5m]))',
  'max by (instance) (max_over_time(myapp_redis_command_duration_seconds_bucket[1h]))',
];

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function oursArgs(dir, port, maintenance) {
  writeFileSync(join(dir, 'am.yml'), 'route:\n  receiver: none\nreceivers:\n  - name: none\n');
  return oursCommand([
    `--config.file=${join(dir, 'am.yml')}`,
    `--storage.path=${join(dir, 'data')}`,
    `--web.listen-address=127.0.0.1:${port}`,
    '--web.enable-remote-write-receiver',
    '--log.level=error',
    ...(maintenance ? [`--data.maintenance-interval=${maintenance}`] : []),
  ])[1];
}

function prometheusArgs(dir, port) {
  writeFileSync(join(dir, 'prometheus.yml'), 'global:\n  scrape_interval: 1h\n');
  return [
    `--config.file=${join(dir, 'prometheus.yml')}`,
    `--storage.tsdb.path=${join(dir, 'data')}`,
    `--web.listen-address=127.0.0.1:${port}`,
    '--web.enable-remote-write-receiver',
    '--log.level=error',
  ];
}

/** A metric's value in a server's `/metrics`. */
async function metricOf(client, url, name) {
  const text = (await client.request(`${url}/metrics`)).body.toString();
  return Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
}

/** Starts a server, `load`s it, and kills it with SIGKILL; seconds the load took. */
async function loadAndKill(name, cmd, args, load) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const client = httpClient(4);
  const server = await launchServer(name, cmd, args(port), url, client, { timeoutMs: 600_000 });
  try {
    const t0 = performance.now();
    await load(client, url);
    return (performance.now() - t0) / 1000;
  } finally {
    server.kill();
    await sleep(200);
    client.close();
  }
}

/**
 * Ours takes no sample older than its warm window (3 h) once a checkpoint has run, as Prometheus's
 * head takes none older than its own window: all but the last steps go in with no checkpoint (a
 * maintenance interval of an hour), the server is stopped; started again checkpointing every 2 s,
 * it takes the last steps once two checkpoints are over, and is then killed.
 */
async function loadOursAndKill(args, series, stream, steps) {
  const t0 = performance.now();
  await withServer(args('1h'), {}, async (client, url, server) => {
    await pushStream(client, url, series, stream, steps - STEPS_AFTER_CHECKPOINT, 8);
    return server.stop;
  });
  await withServer(args('2s'), { timeoutMs: 600_000 }, async (client, url, server) => {
    for (let i = 0; i < 600; i++) {
      if ((await metricOf(client, url, 'prometheus_tsdb_checkpoint_creations_total')) >= 2) break;
      await sleep(500);
    }
    await pushStream(client, url, series, stream, STEPS_AFTER_CHECKPOINT, 1);
    return server.kill;
  });
  return (performance.now() - t0) / 1000;
}

/** Starts ours, runs `use`, closes the client's sockets, then ends the server as `use` says. */
async function withServer(args, options, use) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const client = httpClient(4);
  const server = await launchServer('ours', oursCmd, args(port), url, client, options);
  let end = server.kill;
  try {
    end = await use(client, url, server);
  } finally {
    client.close();
    await end();
    await sleep(200);
  }
}

/** Pushes everything and waits until the head holds at most three hours, as it runs. */
async function loadPrometheus(client, url, series, stream, steps) {
  await pushStream(client, url, series, stream, steps, 8);
  for (let i = 0; i < 600; i++) {
    const min = await metricOf(client, url, 'prometheus_tsdb_head_min_time');
    const max = await metricOf(client, url, 'prometheus_tsdb_head_max_time');
    if (max - min <= 3 * HOUR) break;
    await sleep(1000);
  }
}

/** Starts a server on its data: time to ready, memory, the first and later query times, `extra`. */
async function restart(name, cmd, args, end, hours, extra) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const client = httpClient(4);
  const server = await launchServer(name, cmd, args(port), url, client, { timeoutMs: 600_000 });
  const readyAt = performance.now();
  try {
    await sleep(5000);
    const rss = rssOf(server.pid);
    await sleep(Math.max(0, SETTLE_MS - (performance.now() - readyAt)));
    const settledRss = rssOf(server.pid);
    const firsts = [];
    const later = [];
    for (const query of QUERIES) {
      const times = [];
      for (let run = 0; run < 6; run++) {
        const params = new URLSearchParams({
          query,
          start: String((end - Math.min(24, hours) * HOUR) / 1000),
          end: String(end / 1000),
          step: '60',
        });
        const t0 = performance.now();
        const res = await client.request(`${url}/api/v1/query_range?${params}`);
        times.push(performance.now() - t0);
        const body = JSON.parse(res.body.toString());
        if (body.status !== 'success') throw new Error(`${name}: ${query}: ${body.error}`);
      }
      firsts.push(times[0]);
      later.push(median(times.slice(1)));
    }
    const queriedRss = rssOf(server.pid);
    const more = extra ? await extra(client, url) : undefined;
    return { readyMs: server.readyMs, rss, settledRss, queriedRss, firsts, later, more };
  } finally {
    await server.stop();
    client.close();
  }
}

/**
 * Starts a server on a fresh copy of `pristine` (its data as the kill left it) into `data`; start
 * to ready and resident memory 5 s after, then SIGKILL.
 */
async function startOnCopy(name, cmd, args, pristine, data, env) {
  rmSync(data, { recursive: true, force: true });
  cpSync(pristine, data, { recursive: true });
  // The copy reaches the disk before the start, which would otherwise share the machine with it.
  spawnSync('sync');
  const port = await freePort();
  const client = httpClient(1);
  const server = await launchServer(name, cmd, args(port), `http://127.0.0.1:${port}`, client, {
    timeoutMs: 600_000,
    env,
  });
  try {
    const atReady = cpuOf(server.pid);
    await sleep(5000);
    return { readyMs: server.readyMs, rss: rssOf(server.pid), ...atReady };
  } finally {
    server.kill();
    await sleep(200);
    client.close();
  }
}

/** `/-/healthy` every 10 ms for 15 s while checkpoints run every 2 s. */
async function healthyDuringCheckpoints(client, url) {
  const latencies = [];
  const before = await metricOf(client, url, 'prometheus_tsdb_checkpoint_creations_total');
  const until = performance.now() + 15_000;
  while (performance.now() < until) {
    const t0 = performance.now();
    await client.request(`${url}/-/healthy`);
    latencies.push(performance.now() - t0);
    await sleep(10);
  }
  const checkpoints =
    (await metricOf(client, url, 'prometheus_tsdb_checkpoint_creations_total')) - before;
  return { ...latencyStats(latencies), checkpoints };
}

// A kept-alive connection to a server just stopped can end without a request to report it to.
process.on('uncaughtException', (error) => {
  if (error.code !== 'ECONNRESET') throw error;
});

const prometheus = findPeer('prometheus');
if (!prometheus) skipPeer('prometheus', 'not installed (apt-get install prometheus)');
const mib = (bytes) => fmt(bytes / 2 ** 20, 0);
const ratio = (a, b) => (b ? ` x${fmt(a / b, 2)}` : '');
const rows = [];

/** The `STARTS` rounds of one case, by server: medians against Prometheus's, then each start. */
function printStarts(count, hours, starts) {
  const theirs = starts.get('prometheus') ?? [];
  const line = (what, key, show, oursOnly = false) => {
    console.log(`  ${what}`);
    const b = theirs.length && !oursOnly ? median(theirs.map((s) => s[key])) : undefined;
    for (const [name, runs] of starts) {
      if (oursOnly && name === 'prometheus') continue;
      const a = median(runs.map((s) => s[key]));
      const versus = name === 'prometheus' ? '' : ratio(a, b);
      const each = runs.map((s) => show(s[key])).join(' ');
      console.log(`    ${name}: median ${show(a)}${versus} (${each})`);
    }
  };
  console.log(`\n${count} series x ${hours} h, starts after kill -9 alone, ${STARTS} each`);
  line('start to ready ms', 'readyMs', (v) => fmt(v, 0));
  line('CPU s to ready', 'cpuS', (v) => fmt(v, 2));
  line('page faults to ready', 'faults', (v) => fmt(v, 0));
  // Node's main thread, the event loop's (Prometheus's first thread is one of Go's many).
  line('main thread on a core ms, ours', 'mainMs', (v) => fmt(v, 0), true);
  line('main thread waiting for a core ms, ours', 'waitMs', (v) => fmt(v, 0), true);
  line('resident MiB 5 s after ready', 'rss', mib);
}

for (const { series: count, hours } of CASES) {
  const series = specSeries(count);
  const steps = (hours * HOUR) / STEP_MS;
  const end = Math.floor(Date.now() / STEP_MS) * STEP_MS;
  const start = end - (steps - 1) * STEP_MS;
  const work = mkdtempSync(join(tmpdir(), `bench-retention-${count}x${hours}h-`));
  try {
    const oursDir = join(work, 'ours');
    mkdirSync(oursDir, { recursive: true });
    const args = (maintenance) => (port) => oursArgs(oursDir, port, maintenance);
    const loadedIn = await loadOursAndKill(
      args,
      series,
      new SampleStream(series, start, STEP_MS),
      steps,
    );
    console.log(`${count} x ${hours} h: ours loaded in ${fmt(loadedIn, 0)} s, killed`);
    const oursData = join(oursDir, 'data');
    cpSync(oursData, join(work, 'ours-killed'), { recursive: true });
    let ours;
    if (WITH_QUERIES) {
      ours = await restart('ours', oursCmd, args(undefined), end, hours);
      const probed = await restart(
        'ours',
        oursCmd,
        args('2s'),
        end,
        hours,
        healthyDuringCheckpoints,
      );
      ours.more = probed.more;
    }
    let theirs;
    let theirArgs;
    const theirData = join(work, 'prometheus', 'data');
    if (prometheus) {
      const theirDir = join(work, 'prometheus');
      mkdirSync(theirDir, { recursive: true });
      theirArgs = (port) => prometheusArgs(theirDir, port);
      const theirLoad = await loadAndKill('prometheus', prometheus, theirArgs, (client, url) =>
        loadPrometheus(client, url, series, new SampleStream(series, start, STEP_MS), steps),
      );
      console.log(`${count} x ${hours} h: prometheus loaded in ${fmt(theirLoad, 0)} s, killed`);
      cpSync(theirData, join(work, 'prometheus-killed'), { recursive: true });
      if (WITH_QUERIES) theirs = await restart('prometheus', prometheus, theirArgs, end, hours);
    }
    // Each start of ours in a round: its name and what it adds to the environment.
    const variants = [
      ['ours', undefined],
      ...THRESHOLDS.map((t) => [
        `ours, threshold ${t}`,
        { GLIBC_TUNABLES: `glibc.malloc.mmap_threshold=${t}` },
      ]),
      ...NPROCS.map((n) => [`ours, as on ${n} cores`, { OMP_NUM_THREADS: n }]),
    ];
    const starts = new Map(variants.map(([name]) => [name, []]));
    if (prometheus) starts.set('prometheus', []);
    const killed = join(work, 'ours-killed');
    for (let i = 0; i < STARTS; i++) {
      for (const [name, env] of variants) {
        const run = await startOnCopy('ours', oursCmd, args(undefined), killed, oursData, env);
        starts.get(name).push(run);
      }
      if (prometheus) {
        const b = join(work, 'prometheus-killed');
        const run = await startOnCopy('prometheus', prometheus, theirArgs, b, theirData);
        starts.get('prometheus').push(run);
      }
    }
    if (STARTS > 0) printStarts(count, hours, starts);
    if (ours) rows.push({ count, hours, ours, theirs });
  } finally {
    if (process.env.KEEP_DATA === '1') console.log(`${count} x ${hours} h: data kept in ${work}`);
    else rmSync(work, { recursive: true, force: true });
  }
}

if (rows.length) console.log('\nafter kill -9: ours / prometheus (ratio)');
for (const { count, hours, ours, theirs } of rows) {
  const t = theirs ?? {};
  console.log(`${count} series x ${hours} h`);
  console.log(
    `  start to ready ms        ${fmt(ours.readyMs, 0)} / ${theirs ? fmt(t.readyMs, 0) : '-'}${ratio(ours.readyMs, t.readyMs)}`,
  );
  console.log(
    `  resident MiB, 5 s        ${mib(ours.rss)} / ${theirs ? mib(t.rss) : '-'}${ratio(ours.rss, t.rss)}`,
  );
  console.log(
    `  resident MiB, settled    ${mib(ours.settledRss)} / ${theirs ? mib(t.settledRss) : '-'}${ratio(ours.settledRss, t.settledRss)}`,
  );
  console.log(
    `  resident MiB, after queries ${mib(ours.queriedRss)} / ${theirs ? mib(t.queriedRss) : '-'}${ratio(ours.queriedRss, t.queriedRss)}`,
  );
  QUERIES.forEach((query, i) => {
    console.log(
      `  first query ms           ${fmt(ours.firsts[i], 1)} / ${theirs ? fmt(t.firsts[i], 1) : '-'}${ratio(ours.firsts[i], t.firsts?.[i])}  ${query}`,
    );
    console.log(
      `  then, median of 5 ms     ${fmt(ours.later[i], 1)} / ${theirs ? fmt(t.later[i], 1) : '-'}${ratio(ours.later[i], t.later?.[i])}`,
    );
  });
  const h = ours.more;
  console.log(
    `  ours: /-/healthy during ${h.checkpoints} checkpoints p50 ${fmt(h.p50, 1)} / p99 ${fmt(h.p99, 1)} / worst ${fmt(h.worst, 1)} ms (target worst < 50)`,
  );
}
