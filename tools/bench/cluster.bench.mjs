// High availability: three replicas given the same alerts, as Prometheus sends every alert to
// every Alertmanager. NOTIFICATIONS distinct alerts (each its own group, so each one
// notification) are posted in batches to all three; a loopback webhook counts what arrives. Prints
// the notifications delivered per second, the duplicates (deliveries beyond one per group) and,
// for ours, the median round trip of the claim (`SET NX PX` on the same Redis). Ours: three
// `redisx-alertmanager` joined by `--cluster.redis-url` on a `redis-server` of the benchmark's own;
// side by side with three Debian `prometheus-alertmanager` 0.25 replicas in gossip mode on the
// same load, when installed.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  findPeer,
  fmt,
  freePort,
  httpClient,
  median,
  oursCommand,
  requireFromRepo,
  skipPeer,
  startServer,
} from './bench-support.mjs';

const NOTIFICATIONS = Number(process.env.NOTIFICATIONS ?? 10_000);
const BATCH = 500;
const { default: Redis } = await import(requireFromRepo.resolve('ioredis'));

/** A webhook receiver that counts deliveries per group key. */
async function startReceiver() {
  const perGroup = new Map();
  let deliveries = 0;
  let last = 0;
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk) => (text += chunk));
    req.on('end', () => {
      const body = JSON.parse(text);
      deliveries++;
      last = Date.now();
      perGroup.set(body.groupKey, (perGroup.get(body.groupKey) ?? 0) + 1);
      res.writeHead(200).end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/hook`,
    counts: () => ({ deliveries, groups: perGroup.size, last }),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

function config(hookUrl) {
  return [
    'route:',
    '  receiver: hook',
    '  group_by: [alertname]',
    '  group_wait: 1s',
    '  group_interval: 5m',
    '  repeat_interval: 24h',
    'receivers:',
    '  - name: hook',
    '    webhook_configs:',
    `      - url: ${hookUrl}`,
    '',
  ].join('\n');
}

function batches() {
  const startsAt = new Date().toISOString();
  const out = [];
  for (let from = 0; from < NOTIFICATIONS; from += BATCH) {
    const alerts = [];
    for (let i = from; i < Math.min(from + BATCH, NOTIFICATIONS); i++) {
      alerts.push({ labels: { alertname: `HA${i}`, severity: 'page' }, startsAt });
    }
    out.push(JSON.stringify(alerts));
  }
  return out;
}

/** Posts every batch to every replica, then waits for a notification of every group. */
async function drive(urls, receiver, client) {
  const bodies = batches();
  const started = Date.now();
  for (const body of bodies) {
    await Promise.all(
      urls.map((url) =>
        client.request(`${url}/api/v2/alerts`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body,
        }),
      ),
    );
  }
  const deadline = Date.now() + 120_000;
  while (receiver.counts().groups < NOTIFICATIONS && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
  }
  const done = receiver.counts().last;
  // Late duplicates would come within a few seconds.
  await new Promise((r) => setTimeout(r, 5000));
  const { deliveries, groups } = receiver.counts();
  return { seconds: (done - started) / 1000, deliveries, groups, duplicates: deliveries - groups };
}

async function startRedis() {
  const port = await freePort();
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  const url = `redis://127.0.0.1:${port}`;
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  probe.on('error', () => {}); // refused until redis-server listens
  for (let i = 0; i < 100; i++) {
    try {
      await probe.connect();
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return { url, probe, stop: () => child.kill('SIGTERM') };
}

/** The median round trip of a claim as the replicas make it, on the same Redis. */
async function claimLatency(redis) {
  const times = [];
  for (let i = 0; i < 2000; i++) {
    const started = process.hrtime.bigint();
    await redis.set(`bench:claim:${i}`, 'replica', 'PX', 10_000, 'NX');
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return median(times);
}

async function runOurs() {
  const work = mkdtempSync(join(tmpdir(), 'bench-cluster-'));
  const receiver = await startReceiver();
  const redis = await startRedis();
  writeFileSync(join(work, 'am.yml'), config(receiver.url));
  const client = httpClient(12);
  const servers = [];
  const urls = [];
  try {
    for (const name of ['a', 'b', 'c']) {
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      servers.push(
        await startServer(
          `redisx-alertmanager ${name}`,
          ...oursCommand([
            `--config.file=${join(work, 'am.yml')}`,
            `--storage.path=${join(work, name)}`,
            `--web.listen-address=127.0.0.1:${port}`,
            `--cluster.redis-url=${redis.url}`,
            '--log.level=error',
          ]),
          url,
          client,
        ),
      );
      urls.push(url);
    }
    const result = await drive(urls, receiver, client);
    const outcomes = {};
    for (const url of urls) {
      const text = (await client.request(`${url}/metrics`)).body.toString();
      for (const m of text.matchAll(
        /^alertmanager_cluster_notification_claims_total\{integration="webhook",outcome="(\w+)"\} (\d+)/gm,
      )) {
        outcomes[m[1]] = (outcomes[m[1]] ?? 0) + Number(m[2]);
      }
    }
    return { ...result, outcomes, claimMs: await claimLatency(redis.probe) };
  } finally {
    for (const s of servers) await s.stop();
    client.close();
    redis.probe.disconnect();
    redis.stop();
    await receiver.close();
    rmSync(work, { recursive: true, force: true });
  }
}

async function runUpstream(alertmanager) {
  const work = mkdtempSync(join(tmpdir(), 'bench-cluster-upstream-'));
  const receiver = await startReceiver();
  writeFileSync(join(work, 'am.yml'), config(receiver.url));
  const client = httpClient(12);
  const ports = [];
  for (let i = 0; i < 3; i++) ports.push({ web: await freePort(), cluster: await freePort() });
  const servers = [];
  const urls = [];
  try {
    for (const [i, p] of ports.entries()) {
      const url = `http://127.0.0.1:${p.web}`;
      const peers = ports
        .filter((_, j) => j !== i)
        .map((q) => `--cluster.peer=127.0.0.1:${q.cluster}`);
      servers.push(
        await startServer(
          `prometheus-alertmanager ${i}`,
          alertmanager,
          [
            `--config.file=${join(work, 'am.yml')}`,
            `--storage.path=${join(work, `data-${i}`)}`,
            `--web.listen-address=127.0.0.1:${p.web}`,
            `--cluster.listen-address=127.0.0.1:${p.cluster}`,
            '--cluster.advertise-address=127.0.0.1:' + p.cluster,
            ...peers,
            '--log.level=error',
          ],
          url,
          client,
        ),
      );
      urls.push(url);
    }
    // Let the gossip mesh form before the load.
    await new Promise((r) => setTimeout(r, 3000));
    return await drive(urls, receiver, client);
  } finally {
    for (const s of servers) await s.stop();
    client.close();
    await receiver.close();
    rmSync(work, { recursive: true, force: true });
  }
}

console.log(
  `${NOTIFICATIONS} notifications (one alert per group) posted to each of 3 replicas in batches of ${BATCH}`,
);
const ours = await runOurs();
console.log(
  `ours:     ${fmt(ours.groups / ours.seconds, 0)} notifications/s delivered, ${ours.duplicates} duplicates, ${NOTIFICATIONS - ours.groups} lost, claim round trip median ${fmt(ours.claimMs, 3)} ms (target < 2 ms); claims ${JSON.stringify(ours.outcomes)}`,
);
const upstream = findPeer('prometheus-alertmanager');
if (!upstream) {
  skipPeer('prometheus-alertmanager', 'not installed (apt-get install prometheus-alertmanager)');
} else {
  const theirs = await runUpstream(upstream);
  console.log(
    `upstream: ${fmt(theirs.groups / theirs.seconds, 0)} notifications/s delivered, ${theirs.duplicates} duplicates, ${NOTIFICATIONS - theirs.groups} lost (gossip, 3 replicas of 0.25)`,
  );
  console.log(
    `ratio ours/upstream: delivered per second ${fmt(ours.groups / ours.seconds / (theirs.groups / theirs.seconds), 2)}`,
  );
}
