// A large flush: 200,000 alerts posted in 100 groups (group_wait 15 s, one loopback webhook
// receiving every group's notification whole), and `/-/healthy` probed every PROBE_MS from the
// end of the posting until the webhook has received all 100 notifications. Side by side with
// Debian's `prometheus-alertmanager` in the same run. `ALERTS`, `ALERT_GROUPS` and `PROBE_MS` change
// the size, `GROUP_WAIT` the wait; `REDISX_AM_BIN` another build of our server, `OURS_NODE_ARGS`
// runs it under `node` with those flags (`--cpu-prof --cpu-prof-dir=...`).
import { createServer } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  findPeer,
  fmt,
  freePort,
  httpClient,
  latencyStats,
  oursCommand,
  skipPeer,
  startServer,
} from './bench-support.mjs';

const TOTAL = Number(process.env.ALERTS ?? 200_000);
const GROUPS = Number(process.env.ALERT_GROUPS ?? 100);
const BATCH = 1_000;
const PROBE_MS = Number(process.env.PROBE_MS ?? 10);
// Longer than either server takes to take the 200,000 alerts, so each group is flushed once, whole.
const GROUP_WAIT = process.env.GROUP_WAIT ?? '15s';

/** A webhook that counts notifications and the alerts in them, without parsing the JSON. */
async function startReceiver() {
  let notifications = 0;
  let alerts = 0;
  let waiting;
  const marker = Buffer.from('"fingerprint"');
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      for (let at = body.indexOf(marker); at >= 0; at = body.indexOf(marker, at + 1)) alerts++;
      notifications++;
      res.end();
      if (notifications >= GROUPS) waiting?.();
    });
  });
  const port = await freePort();
  await new Promise((r) => server.listen(port, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${port}/`,
    counts: () => ({ notifications, alerts }),
    reset: () => {
      notifications = 0;
      alerts = 0;
    },
    all: () => new Promise((r) => (notifications >= GROUPS ? r() : (waiting = r))),
    close: () => new Promise((r) => server.close(r)),
  };
}

function batchBody(from) {
  const alerts = [];
  for (let i = from; i < Math.min(from + BATCH, TOTAL); i++) {
    alerts.push({
      labels: {
        alertname: `FlushAlert${i % GROUPS}`,
        instance: `host-${i}.example.com:9100`,
        job: 'node',
        severity: ['warning', 'critical', 'info'][i % 3],
      },
      annotations: { summary: `Instance host-${i} is unhealthy` },
    });
  }
  return JSON.stringify(alerts);
}

async function measure(name, cmd, extra, receiver) {
  const work = mkdtempSync(join(tmpdir(), 'bench-flush-'));
  const config = join(work, 'alertmanager.yml');
  writeFileSync(
    config,
    [
      'route:',
      '  receiver: hook',
      '  group_by: [alertname]',
      `  group_wait: ${GROUP_WAIT}`,
      '  group_interval: 1h',
      'receivers:',
      '  - name: hook',
      '    webhook_configs:',
      `      - url: ${receiver.url}`,
      '',
    ].join('\n'),
  );
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const client = httpClient(1);
  const probes = httpClient(1);
  receiver.reset();
  const server = await startServer(
    name,
    cmd,
    [
      ...extra,
      `--config.file=${config}`,
      `--storage.path=${join(work, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
    ],
    url,
    client,
  );
  try {
    const posting = performance.now();
    for (let from = 0; from < TOTAL; from += BATCH) {
      const res = await client.request(`${url}/api/v2/alerts`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: batchBody(from),
      });
      if (res.status !== 200) throw new Error(`${name}: POST ${res.status} ${res.body}`);
    }
    const posted = performance.now();
    const samples = [];
    let done = false;
    const all = receiver.all().then(() => (done = true));
    while (!done) {
      const t0 = performance.now();
      await probes.request(`${url}/-/healthy`);
      samples.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, PROBE_MS));
    }
    await all;
    return {
      postS: (posted - posting) / 1000,
      flushS: (performance.now() - posted) / 1000,
      healthy: latencyStats(samples),
      ...receiver.counts(),
    };
  } finally {
    client.close();
    probes.close();
    await server.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

const receiver = await startReceiver();
const upstream = findPeer('prometheus-alertmanager');
const runs = [['ours', ...oursCommand([])]];
if (upstream) runs.push(['alertmanager 0.25', upstream, ['--cluster.listen-address=']]);
else skipPeer('prometheus-alertmanager', 'not installed (apt-get install prometheus-alertmanager)');
console.log(
  `${TOTAL} alerts in ${GROUPS} groups (group_wait ${GROUP_WAIT}), /-/healthy probed every ${PROBE_MS} ms until all are delivered`,
);
const results = [];
try {
  for (const [name, cmd, extra] of runs) {
    const r = await measure(name, cmd, extra, receiver);
    results.push(r);
    console.log(
      `${name.padEnd(18)} posted in ${fmt(r.postS, 1)} s, delivered ${r.notifications} notifications (${r.alerts} alerts) ${fmt(r.flushS, 1)} s later; /-/healthy p50 ${fmt(r.healthy.p50)} ms, p99 ${fmt(r.healthy.p99)} ms, worst ${fmt(r.healthy.worst)} ms (${r.healthy.n} probes)`,
    );
  }
  if (results.length === 2) {
    console.log(
      `worst /-/healthy ours/upstream: ${fmt(results[0].healthy.worst, 0)} / ${fmt(results[1].healthy.worst, 0)} ms (target: ours under 200 ms)`,
    );
  }
} finally {
  await receiver.close();
}
