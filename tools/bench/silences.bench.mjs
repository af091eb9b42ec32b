// Silences: 10,000 silences created by 8 concurrent keep-alive clients (each create is durable
// before its 200 here), then 10,000 alerts posted in batches of 1,000 (half of them matched by a
// silence) and `GET /api/v2/alerts` timed: the first GET after the posts, then the median of 3.
// Side by side with Debian's `prometheus-alertmanager` when installed. `REDISX_AM_BIN` overrides
// our server's entry point, `SILENCES`, `ALERTS` and `CLIENTS` the sizes. Every request goes
// through one light keep-alive client (`httpClient`), the same for both servers; a bare `node:http`
// server answering the creates with a constant body is measured with it too, as the ceiling of
// this client and machine.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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

const SILENCES = Number(process.env.SILENCES ?? 10_000);
const ALERTS = Number(process.env.ALERTS ?? 10_000);
const CLIENTS = Number(process.env.CLIENTS ?? 8);
const work = mkdtempSync(join(tmpdir(), 'bench-silences-'));
const configFile = join(work, 'alertmanager.yml');
writeFileSync(
  configFile,
  'route:\n  receiver: hook\n  group_by: [alertname]\n  group_wait: 1h\nreceivers:\n  - name: hook\n    webhook_configs:\n      - url: http://127.0.0.1:19199/\n',
);

const instance = (i) => `host-${i}.example.com:9100`;
// Silence k mutes the alert with instance 2k, so every even alert of 0..ALERTS-1 is silenced.
function silenceBody(k, now) {
  return JSON.stringify({
    matchers: [
      { name: 'alertname', value: `BenchAlert${(2 * k) % 100}`, isRegex: false, isEqual: true },
      { name: 'instance', value: instance(2 * k), isRegex: false, isEqual: true },
    ],
    startsAt: new Date(now).toISOString(),
    endsAt: new Date(now + 3_600_000).toISOString(),
    createdBy: 'bench',
    comment: `maintenance of ${instance(2 * k)}`,
  });
}

function alertBatches() {
  const batches = [];
  for (let from = 0; from < ALERTS; from += 1000) {
    const alerts = [];
    for (let i = from; i < Math.min(from + 1000, ALERTS); i++) {
      alerts.push({
        labels: { alertname: `BenchAlert${i % 100}`, instance: instance(i), job: 'node' },
        annotations: { summary: `Instance ${instance(i)} is unhealthy` },
      });
    }
    batches.push(JSON.stringify(alerts));
  }
  return batches;
}

async function start(name, cmd, args, url) {
  return (await startServer(name, cmd, args, url, client)).stop;
}

async function post(url, body) {
  const res = await client.request(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body,
  });
  if (res.status !== 200) throw new Error(`POST ${url}: ${res.status} ${res.body}`);
}

async function getAlerts(url) {
  let suppressed = 0;
  const ms = await timeMs(async () => {
    const res = await client.request(`${url}/api/v2/alerts`);
    const alerts = JSON.parse(res.body.toString('utf8'));
    suppressed = alerts.filter((a) => a.status.state === 'suppressed').length;
  });
  return { ms, suppressed };
}

/** Creates/s of `CLIENTS` concurrent clients posting the silences to `url`. */
async function createRate(url) {
  const now = Date.now();
  const bodies = Array.from({ length: SILENCES }, (_, k) => silenceBody(k, now));
  let next = 0;
  const createMs = await timeMs(() =>
    Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        while (next < bodies.length) await post(`${url}/api/v2/silences`, bodies[next++]);
      }),
    ),
  );
  return (SILENCES / createMs) * 1000;
}

// The ceiling: a bare `node:http` server that reads each body and answers a constant 200.
const BARE_SERVER = `
const http = require('node:http');
const body = Buffer.from('{"silenceID":"00000000-0000-4000-8000-000000000000"}\\n');
const headers = { 'Content-Type': 'application/json', 'Content-Length': body.length };
http.createServer((req, res) => {
  req.on('data', () => {});
  req.on('end', () => { res.writeHead(200, headers); res.end(body); });
}).listen(Number(process.argv[1]), '127.0.0.1');
`;

async function bareRate() {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const stop = await start(
    'bare node:http',
    process.execPath,
    ['-e', BARE_SERVER, String(port)],
    url,
  );
  try {
    return await createRate(url);
  } finally {
    await stop();
  }
}

async function measure(url) {
  const rate = await createRate(url);
  const batches = alertBatches();
  const postMs = await timeMs(async () => {
    for (const body of batches) await post(`${url}/api/v2/alerts`, body);
  });
  const first = await getAlerts(url);
  const again = [await getAlerts(url), await getAlerts(url), await getAlerts(url)];
  return {
    createRate: rate,
    postMs,
    firstGet: first.ms,
    getMedian: median(again.map((r) => r.ms)),
    suppressed: first.suppressed,
  };
}

const client = httpClient(CLIENTS);
const results = {};
const bare = await bareRate();
const upstream = findPeer('prometheus-alertmanager');
const servers = [
  ['redisx-alertmanager', ...oursCommand([])],
  ...(upstream ? [['prometheus-alertmanager', upstream, ['--cluster.listen-address=']]] : []),
];
for (const [name, cmd, extra] of servers) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const args = [...extra, `--config.file=${configFile}`, `--storage.path=${join(work, name)}`];
  const stop = await start(name, cmd, [...args, `--web.listen-address=127.0.0.1:${port}`], url);
  try {
    results[name] = await measure(url);
  } finally {
    await stop();
  }
}
if (!upstream)
  skipPeer('prometheus-alertmanager', 'not installed (apt-get install prometheus-alertmanager)');

const rows = [
  [`silence creates/s (${CLIENTS} clients)`, 'createRate', (v) => fmt(v, 0)],
  [`POST ${ALERTS} alerts (ms)`, 'postMs', (v) => fmt(v, 0)],
  ['first GET /alerts (ms)', 'firstGet', (v) => fmt(v, 0)],
  ['GET /alerts, median of 3 (ms)', 'getMedian', (v) => fmt(v, 0)],
  ['alerts suppressed', 'suppressed', (v) => String(v)],
];
const names = Object.keys(results);
console.log(`\n${SILENCES} silences, ${ALERTS} alerts (half silenced):`);
console.log(
  [
    'metric'.padEnd(34),
    ...names.map((n) => n.padEnd(26)),
    names.length === 2 ? 'ours/upstream' : '',
  ].join(''),
);
for (const [label, key, show] of rows) {
  const cells = names.map((n) => show(results[n][key]).padEnd(26));
  const ratio =
    names.length === 2 ? `${fmt(results[names[0]][key] / results[names[1]][key], 2)}x` : '';
  console.log([label.padEnd(34), ...cells, ratio].join(''));
}
const mine = results['redisx-alertmanager'];
const theirs = results['prometheus-alertmanager'];
console.log('\ntargets:');
if (theirs) {
  const ratio = mine.createRate / theirs.createRate;
  console.log(`  creates >= 2x upstream: ${fmt(ratio, 2)}x ${ratio >= 2 ? 'MET' : 'MISSED'}`);
}
console.log(
  `  first GET < 300 ms: ${fmt(mine.firstGet)} ms ${mine.firstGet < 300 ? 'MET' : 'MISSED'}`,
);
console.log(
  `\nreference: a bare node:http server answering a constant body, same client: ${fmt(bare, 0)} POST/s`,
);
client.close();
rmSync(work, { recursive: true, force: true });
