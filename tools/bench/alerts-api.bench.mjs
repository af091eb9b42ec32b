// Alerts API: POST 100,000 distinct alerts in batches of 1,000 to /api/v2/alerts (sequentially,
// keep-alive), then GET /api/v2/alerts, GET /api/v2/alerts/groups and a one-hit filtered GET, with
// RSS after ingest and peak RSS; side by side with Debian's `prometheus-alertmanager` in the same
// run. Workload as in the reference baseline. `REDISX_AM_BIN` overrides our server's entry point,
// `ALERTS` and `BATCH` the sizes. Every request goes through one light keep-alive client
// (`httpClient`), the same for both servers.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  findPeer,
  fmt,
  freePort,
  httpClient,
  median,
  oursCommand,
  skipPeer,
  startServer,
  timeMs,
} from './bench-support.mjs';

const TOTAL = Number(process.env.ALERTS ?? 100_000);
const BATCH = Number(process.env.BATCH ?? 1_000);
const work = mkdtempSync(join(tmpdir(), 'bench-alerts-'));
const configFile = join(work, 'alertmanager.yml');
writeFileSync(
  configFile,
  [
    'route:',
    '  receiver: hook',
    '  group_by: [alertname]',
    '  group_wait: 1h',
    'receivers:',
    '  - name: hook',
    '    webhook_configs:',
    '      - url: http://127.0.0.1:19199/',
    '',
  ].join('\n'),
);

function batchBody(from) {
  const alerts = [];
  for (let i = from; i < Math.min(from + BATCH, TOTAL); i++) {
    alerts.push({
      labels: {
        alertname: `BenchAlert${i % 100}`,
        instance: `host-${i}.example.com:9100`,
        job: 'node',
        severity: ['warning', 'critical', 'info'][i % 3],
      },
      annotations: {
        summary: `Instance host-${i} is unhealthy`,
        description: `host-${i}.example.com:9100 of job node has been failing its checks for 5 minutes.`,
      },
      generatorURL: `http://prometheus.example.com:9090/graph?g0.expr=up%7Binstance%3D%22host-${i}%22%7D`,
    });
  }
  return JSON.stringify(alerts);
}

/** VmRSS and VmHWM of a process, in MiB. */
function memory(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (key) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
  return { rss: kib('VmRSS') / 1024, hwm: kib('VmHWM') / 1024 };
}

async function start(name, cmd, args, port) {
  const url = `http://127.0.0.1:${port}`;
  return { name, url, ...(await startServer(name, cmd, args, url, client)) };
}

async function getMs(url) {
  let bytes = 0;
  const ms = await timeMs(async () => {
    const res = await client.request(url);
    if (res.status !== 200) throw new Error(`GET ${url}: ${res.status}`);
    bytes = res.body.length;
  });
  return { ms, bytes };
}

// Bodies are built before the clock starts, so the client's JSON work is not timed.
const bodies = [];
for (let from = 0; from < TOTAL; from += BATCH) bodies.push(batchBody(from));

async function measure(server) {
  const latencies = [];
  const postMs = await timeMs(async () => {
    for (const body of bodies) {
      const start = process.hrtime.bigint();
      const res = await client.request(`${server.url}/api/v2/alerts`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body,
      });
      if (res.status !== 200) throw new Error(`${server.name}: POST answered ${res.status}`);
      latencies.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
  });
  const afterIngest = memory(server.pid);
  const runs = async (url) => [await getMs(url), await getMs(url), await getMs(url)];
  const all = await runs(`${server.url}/api/v2/alerts`);
  const groups = await runs(`${server.url}/api/v2/alerts/groups`);
  const one = encodeURIComponent('instance="host-4242.example.com:9100"');
  const filtered = await runs(`${server.url}/api/v2/alerts?filter=${one}`);
  latencies.sort((a, b) => a - b);
  return {
    postMs,
    rate: (TOTAL / postMs) * 1000,
    p50: latencies[Math.floor(latencies.length * 0.5)],
    p95: latencies[Math.floor(latencies.length * 0.95)],
    rssAfterIngest: afterIngest.rss,
    getAll: median(all.map((r) => r.ms)),
    getAllMiB: all[0].bytes / 1024 / 1024,
    getGroups: median(groups.map((r) => r.ms)),
    getFiltered: median(filtered.map((r) => r.ms)),
    peak: memory(server.pid).hwm,
  };
}

async function serves(url) {
  const res = await client.request(`${url}/api/v2/alerts`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: '[]',
  });
  return res.status === 200;
}

const client = httpClient(1);
const results = {};
const upstream = findPeer('prometheus-alertmanager');
const servers = [
  ['redisx-alertmanager', ...oursCommand([])],
  ...(upstream ? [['prometheus-alertmanager', upstream, ['--cluster.listen-address=']]] : []),
];
for (const [name, cmd, extra] of servers) {
  const port = await freePort();
  const server = await start(
    name,
    cmd,
    [
      ...extra,
      `--config.file=${configFile}`,
      `--storage.path=${join(work, name)}`,
      `--web.listen-address=127.0.0.1:${port}`,
    ],
    port,
  );
  try {
    if (await serves(server.url)) results[name] = await measure(server);
    else skipPeer(name, 'it does not serve POST /api/v2/alerts (API controllers not wired yet)');
  } finally {
    await server.stop();
  }
}
if (!upstream)
  skipPeer('prometheus-alertmanager', 'not installed (apt-get install prometheus-alertmanager)');

const rows = [
  [`POST ${TOTAL} (s)`, 'postMs', (v) => fmt(v / 1000, 2), 'lower'],
  ['alerts/s', 'rate', (v) => fmt(v, 0), 'higher'],
  ['batch p50 / p95 (ms)', 'p50', (v, r) => `${fmt(v)} / ${fmt(r.p95)}`, 'lower'],
  ['RSS after ingest (MiB)', 'rssAfterIngest', (v) => fmt(v), 'lower'],
  [
    'GET /alerts (ms, median of 3)',
    'getAll',
    (v, r) => `${fmt(v)} (${fmt(r.getAllMiB)} MiB)`,
    'lower',
  ],
  ['GET /alerts/groups (ms)', 'getGroups', (v) => fmt(v), 'lower'],
  ['GET /alerts?filter 1 hit (ms)', 'getFiltered', (v) => fmt(v), 'lower'],
  ['peak RSS, VmHWM (MiB)', 'peak', (v) => fmt(v), 'lower'],
];
const names = Object.keys(results);
console.log(`\n${TOTAL} alerts in batches of ${BATCH}, sequential:`);
console.log(
  [
    'metric'.padEnd(32),
    ...names.map((n) => n.padEnd(26)),
    names.length === 2 ? 'ours/upstream' : '',
  ].join(''),
);
for (const [label, key, show] of rows) {
  const cells = names.map((n) => show(results[n][key], results[n]).padEnd(26));
  const ratio =
    names.length === 2 ? `${fmt(results[names[0]][key] / results[names[1]][key], 2)}x` : '';
  console.log([label.padEnd(32), ...cells, ratio].join(''));
}
const mine = results['redisx-alertmanager'];
const theirs = results['prometheus-alertmanager'];
if (mine) {
  console.log('\ntargets:');
  if (theirs)
    console.log(
      `  ingest >= 1.5x upstream: ${fmt(mine.rate / theirs.rate, 2)}x ${mine.rate >= 1.5 * theirs.rate ? 'MET' : 'MISSED'}`,
    );
  console.log(`  GET 100k < 1 s: ${fmt(mine.getAll)} ms ${mine.getAll < 1000 ? 'MET' : 'MISSED'}`);
  if (theirs)
    console.log(
      `  RSS after ingest <= upstream: ${fmt(mine.rssAfterIngest)} vs ${fmt(theirs.rssAfterIngest)} MiB ${mine.rssAfterIngest <= theirs.rssAfterIngest ? 'MET' : 'MISSED'}`,
    );
}
client.close();
rmSync(work, { recursive: true, force: true });
