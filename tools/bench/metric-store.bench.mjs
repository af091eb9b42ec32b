// The metric store and the PromQL engine: 10,000 series of the specification's metric families
// (histograms with their `le` buckets) over one hour at 15 s are appended to the store, then the
// seventeen expressions of the bundled alert rules run as instant queries at the end of the hour.
// Prints bytes per sample in the compressed chunks and heap bytes per series, and time per query.
// Side by side with Debian's `prometheus` when installed: the same samples go into its head
// through the remote-write receiver, its chunk bytes come from its own metrics, and each query runs
// through `/api/v1/query` (its own `execTotalTime` is compared); the answers of both are checked to
// agree. `SERIES` and `MINUTES` change the size; `SHOW_DIFF=1` prints both answers where they differ.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  bundledRules,
  findPeer,
  fmt,
  freePort,
  httpClient,
  median,
  requireFromRepo,
  skipPeer,
  startServer,
} from './bench-support.mjs';
import { pushSamples } from './remote-write.mjs';
import { generateSamples, specSeries } from './spec-metrics.mjs';

const SERIES = Number(process.env.SERIES ?? 10_000);
const MINUTES = Number(process.env.MINUTES ?? 60);
const STEP_MS = 15_000;
// One more sample than the hour holds, so upstream cuts (and counts) both full chunks of each series.
const STEPS = (MINUTES * 60_000) / STEP_MS + 1;
// Rules run the same queries every interval: the median of a warm run of each is what counts.
const RUNS = Number(process.env.RUNS ?? 15);

const { parse } = requireFromRepo('yaml');
const { MemoryStore, Labels } = requireFromRepo('./apps/alertmanager/dist/tsdb/index.js');
const { SAMPLES_PER_CHUNK: SAMPLES_PER_CHUNK_FULL } = requireFromRepo(
  './apps/alertmanager/dist/tsdb/chunks/xor-chunk.js',
);
const { PromqlEngine } = requireFromRepo('./apps/alertmanager/dist/promql/index.js');

const rulesFile = bundledRules;
// `EXPRESSIONS` (a JSON list) runs other queries over the same data, to look into a difference.
const rules = process.env.EXPRESSIONS
  ? JSON.parse(process.env.EXPRESSIONS).map((expr, i) => ({ alert: `expression ${i + 1}`, expr }))
  : parse(readFileSync(rulesFile, 'utf8')).groups.flatMap((g) => g.rules);

const series = specSeries(SERIES);
const last = Math.floor(Date.now() / STEP_MS) * STEP_MS;
const start = last - (STEPS - 1) * STEP_MS;
// Queries run between two scrapes: Prometheus 2.x windows include a sample exactly on their left
// edge (3.x, as ours, do not), so an aligned time would compare versions rather than engines.
const end = last + 7_000;

// ---- ours ----------------------------------------------------------------------------------
global.gc?.();
const heapBefore = process.memoryUsage().heapUsed;
const store = new MemoryStore();
const labels = series.map((s) => Labels.fromRecord(s.labels));
const handles = labels.map((l) => store.seriesFor(l));
const appendStarted = process.hrtime.bigint();
generateSamples(series, start, STEPS, STEP_MS, (i, t, v) => handles[i].append(t, v));
const appendMs = Number(process.hrtime.bigint() - appendStarted) / 1e6;
global.gc?.();
const heapAfter = process.memoryUsage().heapUsed;
let chunkBytes = 0;
let fullChunkBytes = 0;
let fullChunkSamples = 0;
for (const s of store.all()) {
  chunkBytes += s.sampleBytes;
  for (const c of s.exportChunks()) {
    if (c.count < SAMPLES_PER_CHUNK_FULL) continue;
    fullChunkBytes += c.bytes.length;
    fullChunkSamples += c.count;
  }
}
const samples = SERIES * STEPS;
console.log(`${SERIES} series x ${STEPS} samples (${MINUTES} min at 15 s) = ${samples} samples`);
console.log(
  `ours: appended in ${fmt(appendMs, 0)} ms (${fmt(samples / appendMs / 1000, 2)} M samples/s)`,
);
console.log(
  `ours: ${fmt(chunkBytes / samples, 3)} bytes/sample in chunks (${fmt(fullChunkBytes / fullChunkSamples, 3)} in full chunks), ${fmt((heapAfter - heapBefore) / SERIES, 0)} heap bytes/series (labels, index, chunks)`,
);

const engine = new PromqlEngine(store);
for (const rule of rules) engine.instantQuery(rule.expr, end); // warm-up, not timed
const ours = [];
for (const rule of rules) {
  const times = [];
  let result;
  for (let r = 0; r < RUNS; r++) {
    const t0 = process.hrtime.bigint();
    result = engine.instantQuery(rule.expr, end);
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  ours.push({ alert: rule.alert, ms: median(times), result });
}

// ---- upstream -------------------------------------------------------------------------------
const prometheus = findPeer('prometheus');
let upstream;
if (!prometheus) {
  skipPeer('prometheus', 'Debian package prometheus is not installed');
} else {
  upstream = await runPrometheus(prometheus);
}

console.log('\nquery (instant, end of the hour)      ours ms   prometheus ms   ratio   answers');
for (const [i, q] of ours.entries()) {
  const peer = upstream?.queries[i];
  const ratio = peer ? fmt(q.ms / peer.ms, 2) : '-';
  const agree = peer ? (sameAnswer(q.result, peer.data) ? 'agree' : 'DIFFER') : '-';
  console.log(
    `${q.alert.padEnd(36)} ${fmt(q.ms, 2).padStart(8)} ${peer ? fmt(peer.ms, 2).padStart(15) : '-'.padStart(15)} ${ratio.padStart(7)}   ${agree}`,
  );
}
const ourTotal = ours.reduce((n, q) => n + q.ms, 0);
if (upstream) {
  const theirTotal = upstream.queries.reduce((n, q) => n + q.ms, 0);
  console.log(
    `all seventeen: ours ${fmt(ourTotal, 1)} ms, prometheus ${fmt(theirTotal, 1)} ms, ratio ${fmt(ourTotal / theirTotal, 2)}`,
  );
  console.log(
    `prometheus: ${fmt(upstream.chunkBytes / upstream.chunkSamples, 3)} bytes/sample in its head chunks (${upstream.chunks} full chunks, ${upstream.chunkSamples} samples); full chunks ours/prometheus ${fmt(fullChunkBytes / fullChunkSamples / (upstream.chunkBytes / upstream.chunkSamples), 2)}`,
  );
  console.log(
    `prometheus: Go heap in use grew by ${fmt(upstream.heapGrowth / SERIES, 0)} bytes/series over the ingest (labels, index, head chunks, and garbage not yet collected)`,
  );
  const disagree = ours.filter((q, i) => !sameAnswer(q.result, upstream.queries[i].data)).length;
  if (disagree > 0) {
    console.log(`${disagree} queries answered differently`);
    process.exitCode = 1;
  }
} else {
  console.log(`all seventeen: ours ${fmt(ourTotal, 1)} ms`);
}

/** Loads the same samples into Prometheus through remote write and runs the queries there. */
async function runPrometheus(bin) {
  const work = mkdtempSync(join(tmpdir(), 'bench-prometheus-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  writeFileSync(join(work, 'prometheus.yml'), 'global:\n  scrape_interval: 1h\n');
  const client = httpClient(4);
  const server = await startServer(
    'prometheus',
    bin,
    [
      `--config.file=${join(work, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(work, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--web.enable-remote-write-receiver',
      '--log.level=error',
    ],
    url,
    client,
  );
  try {
    const heapInUse = async () => {
      const metrics = (await client.request(`${url}/metrics`)).body.toString();
      return Number(/^go_memstats_heap_inuse_bytes (\S+)$/m.exec(metrics)?.[1] ?? NaN);
    };
    const heapBefore = await heapInUse();
    await pushSamples(client, url, series, start, STEPS, STEP_MS);
    // Let it settle after the ingest, then one untimed round, as for ours.
    await new Promise((r) => setTimeout(r, 5000));
    const heapGrowth = (await heapInUse()) - heapBefore;
    for (const rule of rules) {
      await client.request(
        `${url}/api/v1/query?${new URLSearchParams({ query: rule.expr, time: String(end / 1000) })}`,
      );
    }
    const queries = [];
    for (const rule of rules) {
      const times = [];
      let data;
      for (let r = 0; r < RUNS; r++) {
        const q = new URLSearchParams({ query: rule.expr, time: String(end / 1000), stats: 'all' });
        const res = await client.request(`${url}/api/v1/query?${q}`);
        const body = JSON.parse(res.body.toString());
        if (body.status !== 'success') throw new Error(`${rule.alert}: ${body.error}`);
        data = body.data;
        times.push(body.data.stats.timings.execTotalTime * 1000);
      }
      queries.push({ ms: median(times), data });
    }
    client.close();
    // Its full head chunks are memory-mapped to `chunks_head/`, written out completely on shutdown.
    await server.stop();
    return { queries, heapGrowth, ...headChunkStats(join(work, 'data', 'chunks_head')) };
  } finally {
    client.close();
    await server.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * Bytes of chunk data and samples in them across Prometheus's head chunk files: after an 8-byte
 * file header, each chunk is series ref (8), min and max time (8 + 8), encoding (1), data length
 * (uvarint), data (whose first two bytes count its samples) and a CRC32 (4).
 */
function headChunkStats(dir) {
  let chunkBytes = 0;
  let chunkSamples = 0;
  let chunks = 0;
  for (const name of readdirSync(dir)) {
    const file = readFileSync(join(dir, name));
    let at = 8;
    while (at + 25 < file.length) {
      const encoding = file[at + 24];
      if (encoding === 0) break; // the zero-filled rest of a file
      at += 25;
      let length = 0;
      let shift = 0;
      for (;;) {
        const b = file[at++];
        length += (b & 0x7f) * 2 ** shift;
        if (b < 0x80) break;
        shift += 7;
      }
      chunkSamples += file.readUInt16BE(at);
      chunkBytes += length;
      chunks++;
      at += length + 4;
    }
  }
  return { chunkBytes, chunkSamples, chunks };
}

/** Whether our vector equals Prometheus's (same label sets, values within 1e-9 relative). */
function sameAnswer(ourResult, theirData) {
  if (ourResult.type !== 'vector' || theirData.resultType !== 'vector') return false;
  const mine = new Map(ourResult.samples.map((s) => [s.metric.toString(), s.f]));
  if (mine.size !== theirData.result.length) return false;
  for (const r of theirData.result) {
    const key = Labels.fromRecord(r.metric).toString();
    if (!mine.has(key)) return false;
    const a = mine.get(key);
    const b = Number(r.value[1]);
    if (!(
      a === b ||
      (Number.isNaN(a) && Number.isNaN(b)) ||
      Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b))
    )) {
      return false;
    }
  }
  return true;
}

if (process.env.SHOW_DIFF && upstream) {
  for (const [i, q] of ours.entries()) {
    if (sameAnswer(q.result, upstream.queries[i].data)) continue;
    console.log(
      q.alert,
      JSON.stringify(q.result.samples.map((s) => [s.metric.toString(), s.f])),
      JSON.stringify(upstream.queries[i].data.result),
    );
  }
}
