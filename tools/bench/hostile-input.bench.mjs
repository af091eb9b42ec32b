// Hostile input: how long `GET /-/healthy` takes while the server handles (1) a silence
// `v=~"(a+)+$"` and an alert whose `v` is 32 `a`s and `!` (a backtracking regex engine takes
// seconds per match there), plus `GET /api/v2/alerts?filter=v=~"(a+)+$"`; (2) a 50 MB alert batch
// accepted (our server with `--web.max-request-bytes=64MiB`); (3) the same batch at our default
// limit, refused with 413. Side by side with Debian's `prometheus-alertmanager` in the same run.
// Health probes come from this process; the 50 MB body is sent by a separate `curl`, so the
// sender's own work never delays a probe. `MB` sets the body size.
import { spawn } from 'node:child_process';
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

const MB = Number(process.env.MB ?? 50);
const work = mkdtempSync(join(tmpdir(), 'bench-hostile-'));
const configFile = join(work, 'alertmanager.yml');
writeFileSync(
  configFile,
  'route:\n  receiver: hook\n  group_wait: 1h\nreceivers:\n  - name: hook\n',
);
const bodyFile = join(work, 'alerts.json');
const alerts = [];
for (let i = 0, bytes = 0; bytes < MB * 1e6; i++) {
  const alert = {
    labels: { alertname: `Big${i % 100}`, instance: `host-${i}.example.com:9100`, job: 'node' },
    annotations: { summary: `Instance host-${i} is unhealthy`, description: 'x'.repeat(100) },
  };
  bytes += JSON.stringify(alert).length + 1;
  alerts.push(alert);
}
writeFileSync(bodyFile, JSON.stringify(alerts));

const client = httpClient(4);

/** Probes `/-/healthy` every 10 ms until `work` settles; returns latencies in ms. */
async function probeDuring(url, work) {
  const latencies = [];
  let done = false;
  const probe = (async () => {
    while (!done) {
      const start = process.hrtime.bigint();
      await client.request(`${url}/-/healthy`);
      latencies.push(Number(process.hrtime.bigint() - start) / 1e6);
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  const result = await work;
  done = true;
  await probe;
  latencies.sort((a, b) => a - b);
  return {
    result,
    probes: latencies.length,
    p50: latencies[Math.floor(latencies.length / 2)] ?? NaN,
    max: latencies[latencies.length - 1] ?? NaN,
  };
}

/** POSTs the body file with curl; resolves with the status and the seconds it took. */
function curlPost(url) {
  return new Promise((resolve) => {
    const start = process.hrtime.bigint();
    const child = spawn('curl', [
      '-s',
      '-o',
      '/dev/null',
      '-w',
      '%{http_code}',
      '-H',
      'Content-Type: application/json',
      '--data-binary',
      `@${bodyFile}`,
      `${url}/api/v2/alerts`,
    ]);
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('close', () =>
      resolve({ status: out, seconds: Number(process.hrtime.bigint() - start) / 1e9 }),
    );
  });
}

async function regexCase(url) {
  const silence = {
    matchers: [{ name: 'v', value: '(a+)+$', isRegex: true }],
    startsAt: new Date().toISOString(),
    endsAt: new Date(Date.now() + 3_600_000).toISOString(),
    createdBy: 'bench',
    comment: 'bench',
  };
  const json = { 'Content-Type': 'application/json' };
  await client.request(`${url}/api/v2/silences`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify(silence),
  });
  const filter = encodeURIComponent('v=~"(a+)+$"');
  // For two seconds: post the adversarial alert (a new one each time, so each is routed and
  // checked against the silence) and list with the hostile filter, over and over.
  return probeDuring(
    url,
    (async () => {
      const until = Date.now() + 2000;
      for (let i = 0; Date.now() < until; i++) {
        const alert = [{ labels: { alertname: 'R', i: String(i), v: `${'a'.repeat(32)}!` } }];
        await client.request(`${url}/api/v2/alerts`, {
          method: 'POST',
          headers: json,
          body: JSON.stringify(alert),
        });
        await client.request(`${url}/api/v2/alerts?filter=${filter}`);
      }
    })(),
  );
}

async function measure(name, cmd, extra, limitArgs) {
  const out = {};
  for (const [label, args, run] of [
    ['regex', [], regexCase],
    ['50 MB accepted', limitArgs, (url) => probeDuring(url, curlPost(url))],
    ['50 MB at default limit', [], (url) => probeDuring(url, curlPost(url))],
  ]) {
    if (label === '50 MB at default limit' && limitArgs.length === 0) continue;
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const storage = join(work, `${name}-${label.replace(/\W+/g, '-')}`);
    const server = await startServer(
      name,
      cmd,
      [
        ...extra,
        ...args,
        `--config.file=${configFile}`,
        `--storage.path=${storage}`,
        `--web.listen-address=127.0.0.1:${port}`,
      ],
      url,
      client,
    );
    try {
      out[label] = await run(url);
    } finally {
      await server.stop();
    }
  }
  return out;
}

const upstream = findPeer('prometheus-alertmanager');
const results = {
  'redisx-alertmanager': await measure('redisx-alertmanager', ...oursCommand([]), [
    '--web.max-request-bytes=67108864',
  ]),
};
if (upstream) {
  results['prometheus-alertmanager'] = await measure(
    'prometheus-alertmanager',
    upstream,
    ['--cluster.listen-address='],
    [],
  );
} else
  skipPeer('prometheus-alertmanager', 'not installed (apt-get install prometheus-alertmanager)');
client.close();
rmSync(work, { recursive: true, force: true });

console.log(`\nGET /-/healthy while the server handles hostile input (${MB} MB bodies):`);
console.log(
  [
    'case'.padEnd(26),
    'server'.padEnd(26),
    'answer'.padEnd(10),
    'took (s)'.padEnd(10),
    'probes'.padEnd(8),
    'p50 (ms)'.padEnd(10),
    'max (ms)',
  ].join(''),
);
for (const [server, cases] of Object.entries(results)) {
  for (const [label, r] of Object.entries(cases)) {
    const status = r.result?.status ?? '-';
    const took = r.result?.seconds === undefined ? '-' : fmt(r.result.seconds, 2);
    console.log(
      [
        label.padEnd(26),
        server.padEnd(26),
        String(status).padEnd(10),
        took.padEnd(10),
        String(r.probes).padEnd(8),
        fmt(r.p50).padEnd(10),
        fmt(r.max),
      ].join(''),
    );
  }
}
const mine = results['redisx-alertmanager'];
console.log('\ntargets (every probe under 100 ms):');
for (const [label, r] of Object.entries(mine)) {
  console.log(`  ${label}: max ${fmt(r.max)} ms ${r.max < 100 ? 'MET' : 'MISSED'}`);
}
