// Scraping at scale, side by side: the server and Debian's `prometheus` both scrape the same
// exporters (`TARGETS` loopback endpoints serving `SERIES` series of the specification's families
// between them, text format, values moving as real ones do) every 15 s for `MINUTES` minutes. Prints
// each server's resident memory (sampled every 5 s: the highest, and at the end), the scrapes each
// took against the scrapes due (`count_over_time(scrape_samples_scraped[...])` per target: a
// missed scrape leaves no sample), and its slowest scrape (`scrape_duration_seconds`). Skipped, with the
// reason, when prometheus is not installed (ours alone is still measured).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  cpuOf,
  findPeer,
  fmt,
  freePort,
  httpClient,
  launchServer,
  oursCommand,
  rssOf,
  skipPeer,
} from './bench-support.mjs';
import { SampleStream, specSeries } from './spec-metrics.mjs';

const SERIES = Number(process.env.SERIES ?? 100_000);
const TARGETS = Number(process.env.TARGETS ?? 10);
const MINUTES = Number(process.env.MINUTES ?? 5);
const INTERVAL_S = 15;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A label set in the text format. */
function seriesLine(labels) {
  const { __name__: name, ...rest } = labels;
  const pairs = Object.entries(rest).map(([k, v]) => `${k}="${v}"`);
  return pairs.length === 0 ? name : `${name}{${pairs.join(',')}}`;
}

/**
 * The exporters: each serves its share of the series, values advanced one step (15 s of the
 * stream) whenever a scrape finds them older than the interval, so both servers see the same ones.
 */
async function startExporters() {
  const all = specSeries(SERIES);
  const per = Math.ceil(all.length / TARGETS);
  const servers = [];
  for (let k = 0; k < TARGETS; k++) {
    const series = all.slice(k * per, (k + 1) * per);
    const names = series.map((s) => seriesLine(s.labels));
    const stream = new SampleStream(series, Date.now(), INTERVAL_S * 1000);
    const values = new Float64Array(series.length);
    let stepped = 0;
    let body = '';
    const render = () => {
      stream.next((i, _t, v) => (values[i] = v));
      body = names.map((n, i) => `${n} ${values[i]}\n`).join('');
      stepped = Date.now();
    };
    render();
    const server = createServer((req, res) => {
      if (Date.now() - stepped >= INTERVAL_S * 1000 - 1000) render();
      res.writeHead(200, { 'Content-Type': 'text/plain; version=0.0.4' }).end(body);
    });
    const port = await freePort();
    await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
    servers.push({ server, target: `127.0.0.1:${port}` });
  }
  return servers;
}

function scrapeConfig(targets) {
  return [
    'global:',
    `  scrape_interval: ${INTERVAL_S}s`,
    `  scrape_timeout: 10s`,
    'scrape_configs:',
    '  - job_name: spec',
    '    static_configs:',
    `      - targets: [${targets.map((t) => `'${t}'`).join(', ')}]`,
    '',
  ].join('\n');
}

async function query(client, url, expr) {
  const res = await client.request(
    `${url}/api/v1/query?query=${encodeURIComponent(expr)}&time=${Date.now() / 1000}`,
  );
  const body = JSON.parse(res.body.toString());
  if (body.status !== 'success') throw new Error(`${expr}: ${body.error}`);
  return body.data.result.map((r) => Number(r.value[1]));
}

const prometheus = findPeer('prometheus');
if (!prometheus) skipPeer('prometheus', 'not installed (apt-get install prometheus)');
const work = mkdtempSync(join(tmpdir(), 'bench-scrape-scale-'));
const exporters = await startExporters();
const config = scrapeConfig(exporters.map((e) => e.target));
writeFileSync(join(work, 'scrape.yml'), config);
writeFileSync(join(work, 'am.yml'), 'route:\n  receiver: none\nreceivers:\n  - name: none\n');
const client = httpClient(4);
const servers = [];
try {
  const oursPort = await freePort();
  servers.push({
    name: 'ours',
    url: `http://127.0.0.1:${oursPort}`,
    ...(await launchServer(
      'ours',
      ...oursCommand([
        `--config.file=${join(work, 'am.yml')}`,
        `--rules.config.file=${join(work, 'scrape.yml')}`,
        `--storage.path=${join(work, 'ours')}`,
        `--web.listen-address=127.0.0.1:${oursPort}`,
        '--log.level=error',
      ]),
      `http://127.0.0.1:${oursPort}`,
      client,
    )),
  });
  if (prometheus) {
    const port = await freePort();
    servers.push({
      name: 'prometheus',
      url: `http://127.0.0.1:${port}`,
      ...(await launchServer(
        'prometheus',
        prometheus,
        [
          `--config.file=${join(work, 'scrape.yml')}`,
          `--storage.tsdb.path=${join(work, 'prometheus')}`,
          `--web.listen-address=127.0.0.1:${port}`,
          '--log.level=error',
        ],
        `http://127.0.0.1:${port}`,
        client,
      )),
    });
  }
  console.log(
    `${SERIES} series on ${TARGETS} targets, scraped every ${INTERVAL_S} s for ${MINUTES} min by ${servers.map((s) => s.name).join(' and ')}`,
  );
  const started = Date.now();
  const peak = new Map(servers.map((s) => [s.name, 0]));
  while (Date.now() - started < MINUTES * 60_000) {
    await sleep(5000);
    for (const s of servers) peak.set(s.name, Math.max(peak.get(s.name), rssOf(s.pid)));
  }
  const window = `${MINUTES * 60 - INTERVAL_S}s`;
  const due = Math.floor((MINUTES * 60 - INTERVAL_S) / INTERVAL_S);
  console.log(
    '\nserver       resident MiB (peak / end)   scrapes per target (min / max, due)   slowest scrape   CPU s',
  );
  for (const s of servers) {
    const taken = await query(
      client,
      s.url,
      `count_over_time(scrape_samples_scraped{job="spec"}[${window}])`,
    );
    const slowest = await query(
      client,
      s.url,
      `max(max_over_time(scrape_duration_seconds{job="spec"}[${window}]))`,
    );
    const down = await query(client, s.url, `sum(1 - up{job="spec", exported_job=""})`);
    console.log(
      `${s.name.padEnd(12)} ${fmt(peak.get(s.name) / 2 ** 20, 0).padStart(6)} / ${fmt(rssOf(s.pid) / 2 ** 20, 0).padEnd(18)}` +
        `${Math.min(...taken)} / ${Math.max(...taken)} (${due}, ${taken.length} targets, ${down[0]} down now)`.padEnd(
          40,
        ) +
        `${fmt((slowest[0] ?? NaN) * 1000, 0)} ms`.padEnd(17) +
        fmt(cpuOf(s.pid).cpuS, 1),
    );
  }
  if (servers.length === 2) {
    const [ours, theirs] = servers;
    console.log(
      `peak memory ratio ours/prometheus x${fmt(peak.get(ours.name) / peak.get(theirs.name), 2)}`,
    );
  }
} finally {
  for (const s of servers) await s.stop();
  for (const e of exporters) e.server.close();
  client.close();
  rmSync(work, { recursive: true, force: true });
}
