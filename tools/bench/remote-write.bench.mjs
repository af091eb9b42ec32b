// Remote write from the server to Debian's `prometheus` (its `--web.enable-remote-write-receiver`):
// the specification's series are pushed into the server's own receiver, one request per step with
// every series, and the server's `remote_write` sends them on. Prints the rate the server took
// them in, the rate they reached Prometheus (first push to the last sample counted there), and
// then, with Prometheus stopped while more are appended and started again on the same port and
// storage, how long the catch-up took and whether every sample arrived. `SERIES` and `STEPS`
// change the size. Skipped, with the reason, when prometheus is not installed.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  findPeer,
  fmt,
  freePort,
  httpClient,
  oursCommand,
  skipPeer,
  startServer,
} from './bench-support.mjs';
import { pushSamples } from './remote-write.mjs';
import { specSeries } from './spec-metrics.mjs';

const SERIES = Number(process.env.SERIES ?? 1_000);
const STEPS = Number(process.env.STEPS ?? 200);
const STEP_MS = 10_000;

const prometheus = findPeer('prometheus');
if (!prometheus) {
  skipPeer('prometheus', 'not installed (apt-get install prometheus); nothing to write to');
  process.exit(0);
}

const dir = mkdtempSync(join(tmpdir(), 'bench-remote-write-'));
const client = httpClient();
const [ourPort, theirPort] = [await freePort(), await freePort()];
const ours = `http://127.0.0.1:${ourPort}`;
const theirs = `http://127.0.0.1:${theirPort}`;
writeFileSync(join(dir, 'empty.yml'), '{}\n');
writeFileSync(join(dir, 'am.yml'), 'route:\n  receiver: none\nreceivers:\n  - name: none\n');
// Upstream's queue defaults but a shorter deadline, so the last partial batch does not wait 5 s.
writeFileSync(
  join(dir, 'prometheus.yml'),
  `remote_write:\n  - url: ${theirs}/api/v1/write\n    name: bench\n    queue_config: {batch_send_deadline: 100ms}\n`,
);

const startPrometheus = () =>
  startServer(
    'prometheus',
    prometheus,
    [
      `--config.file=${join(dir, 'empty.yml')}`,
      `--storage.tsdb.path=${join(dir, 'tsdb')}`,
      `--web.listen-address=127.0.0.1:${theirPort}`,
      '--web.enable-remote-write-receiver',
    ],
    theirs,
    client,
  );

/**
 * Samples Prometheus holds (it scrapes nothing: every series came from the server), counted per
 * metric name: a range function drops the name, so series of different names would collide.
 */
async function countedByPrometheus() {
  const names = JSON.parse(
    (await client.request(`${theirs}/api/v1/label/__name__/values`)).body.toString(),
  ).data;
  const counts = await Promise.all(
    names.map(async (name) => {
      const expr = encodeURIComponent(`sum(count_over_time(${name}[1d]))`);
      const answer = JSON.parse(
        (await client.request(`${theirs}/api/v1/query?query=${expr}`)).body.toString(),
      );
      if (answer.status !== 'success') throw new Error(`query: ${answer.error}`);
      const { result } = answer.data;
      return result.length === 0 ? 0 : Number(result[0].value[1]);
    }),
  );
  return counts.reduce((a, b) => a + b, 0);
}

async function waitForCount(expected, timeoutMs = 300_000) {
  const begin = performance.now();
  for (;;) {
    // Until its write-ahead log is replayed after a start, Prometheus answers 503.
    const count = await countedByPrometheus().catch(() => 0);
    if (count >= expected) return count;
    if (performance.now() - begin > timeoutMs) return count;
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function metric(name) {
  const text = (await client.request(`${ours}/metrics`)).body.toString();
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

let prom = await startPrometheus();
const server = await startServer(
  'redisx-alertmanager',
  ...oursCommand([
    `--config.file=${join(dir, 'am.yml')}`,
    `--rules.config.file=${join(dir, 'prometheus.yml')}`,
    `--storage.path=${join(dir, 'am')}`,
    `--web.listen-address=127.0.0.1:${ourPort}`,
    '--web.enable-remote-write-receiver',
  ]),
  ours,
  client,
);

try {
  const series = specSeries(SERIES);
  const perPhase = SERIES * STEPS;
  // Two phases of STEPS steps each, ending a step before now (Prometheus takes the last hours).
  const start = Date.now() - 2 * STEPS * STEP_MS;
  console.log(
    `${SERIES} series × ${STEPS} steps = ${perPhase} samples per phase, queue_config defaults ` +
      `(max_samples_per_send 500, capacity 2500 × max_shards 200), one shard`,
  );

  const begin = performance.now();
  await pushSamples(client, ours, series, start, STEPS, STEP_MS);
  const pushedMs = performance.now() - begin;
  const counted = await waitForCount(perPhase);
  const deliveredMs = performance.now() - begin;
  console.log(
    `into the server: ${fmt(perPhase / (pushedMs / 1000), 0)} samples/s; ` +
      `reached Prometheus: ${fmt(perPhase / (deliveredMs / 1000), 0)} samples/s ` +
      `(${counted}/${perPhase} in ${fmt(deliveredMs / 1000, 2)} s)`,
  );

  await prom.stop();
  await pushSamples(client, ours, series, start + STEPS * STEP_MS, STEPS, STEP_MS);
  // Long enough for the sender to fail and back off a few times.
  await new Promise((r) => setTimeout(r, 2_000));
  const pending = await metric('prometheus_remote_storage_samples_pending');
  const retried = await metric('prometheus_remote_storage_samples_retried_total');
  const restart = performance.now();
  prom = await startPrometheus();
  const total = await waitForCount(2 * perPhase);
  const caughtUpMs = performance.now() - restart;
  const dropped = await metric('prometheus_remote_storage_samples_dropped_total');
  const failed = await metric('prometheus_remote_storage_samples_failed_total');
  console.log(
    `receiver restart: ${pending} samples pending while it was down (${retried} retried), ` +
      `caught up ${fmt(caughtUpMs / 1000, 2)} s after its start (Prometheus's own start included)`,
  );
  const lost = 2 * perPhase - total;
  console.log(
    `nothing lost: ${lost === 0 ? 'yes' : 'NO'} (${total}/${2 * perPhase} in Prometheus; ` +
      `dropped ${dropped}, failed ${failed})`,
  );
  if (lost !== 0) process.exitCode = 1;
} finally {
  await server.stop();
  await prom.stop();
  client.close();
  rmSync(dir, { recursive: true, force: true });
}
