// Rule evaluation: 10,000 series of the specification's metric families (one hour at 15 s) and
// the seventeen bundled alert rules in their seven groups, evaluated every 15 s by the server
// (`--rules.config.file`). Prints the time to evaluate every group once (the sum of
// `prometheus_rule_group_last_duration_seconds`, the median over several rounds) and the resident
// memory of the whole process. Side by side with Debian's `prometheus` when installed, on the same
// samples (through its remote-write receiver) and the same rules file. `SERIES`, `MINUTES` and
// `ROUNDS` change the size; the first `WARMUP` rounds are not counted.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  bundledRules,
  findPeer,
  fmt,
  freePort,
  httpClient,
  median,
  oursCommand,
  skipPeer,
  startServer,
} from './bench-support.mjs';
import { pushSamples } from './remote-write.mjs';
import { specSeries } from './spec-metrics.mjs';
import { writeSpecStore } from './spec-store.mjs';

const SERIES = Number(process.env.SERIES ?? 10_000);
const MINUTES = Number(process.env.MINUTES ?? 60);
const ROUNDS = Number(process.env.ROUNDS ?? 10);
// The first rounds after a start run while V8 still compiles the hot paths: not counted, for both.
const WARMUP = Number(process.env.WARMUP ?? 3);
const STEP_MS = 15_000;
const STEPS = (MINUTES * 60_000) / STEP_MS + 1;

const rulesFile = bundledRules;

const series = specSeries(SERIES);
/**
 * The first sample's time for data that ends now: each server gets the hour ending when it is
 * loaded, so both evaluate their rules over windows of the same age (`[5m]` at "now" holds as
 * many samples for each), however long the other one took.
 */
function hourEndingNow() {
  const last = Math.floor(Date.now() / STEP_MS) * STEP_MS;
  return last - (STEPS - 1) * STEP_MS;
}

/** Rule group durations (s) and resident bytes from a server's own metrics. */
function readMetrics(text) {
  let groups = 0;
  let sum = 0;
  for (const m of text.matchAll(/^prometheus_rule_group_last_duration_seconds\{[^}]*\} (\S+)$/gm)) {
    groups++;
    sum += Number(m[1]);
  }
  const rss = Number(/^process_resident_memory_bytes (\S+)$/m.exec(text)?.[1] ?? NaN);
  const evaluated = [
    ...text.matchAll(/^prometheus_rule_group_last_evaluation_timestamp_seconds\{[^}]*\} (\S+)$/gm),
  ].map((m) => Number(m[1]));
  return { groups, sum, rss, oldestEvaluation: Math.min(...evaluated) };
}

/** Waits for `rounds` more evaluations of every group and returns the median total and the RSS. */
async function measure(client, url) {
  const totals = [];
  let rss = NaN;
  let seen = 0;
  while (totals.length < WARMUP + ROUNDS) {
    await new Promise((r) => setTimeout(r, 1000));
    const m = readMetrics((await client.request(`${url}/metrics`)).body.toString());
    if (m.groups < 7 || !(m.oldestEvaluation > seen)) continue;
    // Every group evaluated again since the last reading: one more round.
    if (seen > 0) totals.push(m.sum * 1000);
    seen = m.oldestEvaluation;
    rss = m.rss;
  }
  return { ms: median(totals.slice(WARMUP)), rss };
}

function rulesConfig(dir, rules = rulesFile) {
  const file = join(dir, 'prometheus.yml');
  writeFileSync(
    file,
    `global:\n  evaluation_interval: 15s\n  scrape_interval: 1h\nrule_files: [${JSON.stringify(rules)}]\n`,
  );
  return file;
}

// ---- ours ----------------------------------------------------------------------------------
async function runOurs() {
  const work = mkdtempSync(join(tmpdir(), 'bench-rules-'));
  await writeSpecStore(join(work, 'data'), series, hourEndingNow(), STEPS, STEP_MS);
  writeFileSync(join(work, 'am.yml'), 'route:\n  receiver: none\nreceivers:\n  - name: none\n');
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const client = httpClient(2);
  const server = await startServer(
    'redisx-alertmanager',
    ...oursCommand([
      `--config.file=${join(work, 'am.yml')}`,
      `--storage.path=${join(work, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      `--rules.config.file=${rulesConfig(work)}`,
      '--log.level=error',
    ]),
    url,
    client,
  );
  try {
    return await measure(client, url);
  } finally {
    client.close();
    await server.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

// ---- Prometheus ----------------------------------------------------------------------------
async function runPrometheus(prometheus) {
  const work = mkdtempSync(join(tmpdir(), 'bench-rules-prometheus-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const client = httpClient(4);
  const server = await startServer(
    'prometheus',
    prometheus,
    [
      `--config.file=${rulesConfig(work)}`,
      `--storage.tsdb.path=${join(work, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--web.enable-remote-write-receiver',
      '--log.level=error',
    ],
    url,
    client,
  );
  try {
    await pushSamples(client, url, series, hourEndingNow(), STEPS, STEP_MS);
    return await measure(client, url);
  } finally {
    client.close();
    await server.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

console.log(
  `${SERIES} series, ${MINUTES} min at 15 s, ${readFileSync(rulesFile, 'utf8').match(/- alert:/g).length} rules in 7 groups every 15 s; median of ${ROUNDS} rounds`,
);
const ours = await runOurs();
console.log(
  `ours:       every group once ${fmt(ours.ms, 2)} ms, resident memory ${fmt(ours.rss / 2 ** 20, 0)} MiB`,
);
const prometheus = findPeer('prometheus');
if (!prometheus) {
  skipPeer('prometheus', 'not installed (apt-get install prometheus)');
} else {
  const theirs = await runPrometheus(prometheus);
  console.log(
    `prometheus: every group once ${fmt(theirs.ms, 2)} ms, resident memory ${fmt(theirs.rss / 2 ** 20, 0)} MiB`,
  );
  console.log(
    `ratio ours/prometheus: evaluation ${fmt(ours.ms / theirs.ms, 2)} (target <= 1), memory ${fmt(ours.rss / theirs.rss, 2)} (target <= 2)`,
  );
}
