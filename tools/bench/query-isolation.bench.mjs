// No query or rule evaluation stalls alerting: 10,000 series of the specification's families (one
// hour at 15 s) and the seventeen bundled rules, side by side with Debian's `prometheus` on the
// same samples (loaded through its remote-write receiver, both servers up at once, every query
// over the same fixed range: the one loaded, from its sixth minute, at times half a step off the
// samples' grid, where both servers' rules of evaluation agree). The cases, in the order they run:
// - answers: each of the three heavy queries a Grafana dashboard sends, as a range query over the
//   loaded range and as an instant query at its end, on both servers: the answers compared (equal
//   within 1e-9 relative, series sorted by labels), the first run of each (cold: when this case
//   runs first, these are the first queries each server answers) and the median of `ROUNDS` more;
// - rules: the three heavy expressions as one recording-rule group every 5 s, added to one server
//   at a time (a rule file more, then a reload) after its samples are topped up to now through
//   remote write (so the group's `[5m]` windows hold as many samples on both); after the group's
//   first two evaluations, for `RULES_S` seconds: `/-/healthy` (and, ours only, a one-alert
//   `POST /api/v2/alerts`) every `PROBE_MS`, p50/p99/worst; the group's `evaluationTime` as
//   `/api/v1/rules` shows it at each evaluation of the window (median, max); and the group's
//   `prometheus_rule_group_iterations_missed_total`. The group is removed again afterwards;
// - restart: each server stopped and started again on its data: the time to `/-/ready`, then
//   `count(count_over_time(up[...]))` over the loaded range as the first query, warm (the
//   median of `ROUNDS` more), and `SETTLE_S` seconds later (the median of ten times as many);
// - queries (runs answers too: its ratios are of the same answers):
//   - stall: `/-/healthy` (and, ours only, a one-alert `POST /api/v2/alerts`) latency p50/p99/worst
//     with nothing else running and while the heavy queries run back to back;
//   - query time: each heavy query (its first run in this case too) and the rules' seventeen
//     expressions as range queries;
//   - parallelism: four heavy queries at once against one after another;
//   - schedule: rule group iterations missed and the self-scrape's lateness under the heavy queries.
// `CASES` (comma-separated, of answers, rules, restart, queries; all by default) picks the cases.
// `SERIES`, `MINUTES`, `PROBE_MS`, `ROUNDS`, `WARM`, `PAIRS`, `RULES_S` and `SETTLE_S` change the size;
// `OURS_NODE_ARGS` runs our server under `node` with those flags (`--cpu-prof --cpu-prof-dir=...` to
// see where its threads spend their time); `TIMEOUT_MIN` bounds the whole run (the servers are killed then).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  bundledRules,
  findPeer,
  fmt,
  freePort,
  httpClient,
  latencyStats,
  launchServer,
  median,
  oursCommand,
  requireFromRepo,
  skipPeer,
  withTimeout,
} from './bench-support.mjs';
import { pushSamples, pushStream } from './remote-write.mjs';
import { SampleStream, specSeries } from './spec-metrics.mjs';
import { writeSpecStore } from './spec-store.mjs';

const SERIES = Number(process.env.SERIES ?? 10_000);
const MINUTES = Number(process.env.MINUTES ?? 60);
const PROBE_MS = Number(process.env.PROBE_MS ?? 20);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const WARM = Number(process.env.WARM ?? 3);
const PAIRS = Number(process.env.PAIRS ?? 7);
const RULES_S = Number(process.env.RULES_S ?? 30);
const SETTLE_S = Number(process.env.SETTLE_S ?? 10);
const TIMEOUT_MIN = Number(process.env.TIMEOUT_MIN ?? 60 + SERIES / 2_000);
const ALL_CASES = ['answers', 'rules', 'restart', 'queries'];
const CASES = new Set(
  (process.env.CASES ?? ALL_CASES.join(','))
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean),
);
for (const c of CASES)
  if (!ALL_CASES.includes(c)) throw new Error(`CASES: unknown case ${c} (${ALL_CASES.join(', ')})`);
if (CASES.has('queries')) CASES.add('answers');
const STEP_MS = 15_000;
const STEPS = (MINUTES * 60_000) / STEP_MS + 1;
const SCRAPE_S = 5;
const HEAVY_GROUP = 'bench-heavy';
const HEAVY_INTERVAL_S = 5;
// Bounds, so that a server that stops answering ends the run instead of holding it.
const QUERY_TIMEOUT_MS = 300_000;
const PROBE_TIMEOUT_MS = 30_000;
const LOAD_MAX_MS = 30 * 60_000;
const START_TIMEOUT_MS = 300_000;
// Series per remote-write request of the top-up: our receiver takes bodies up to 4 MiB.
const TOPUP_SERIES = 10_000;

const HEAVY = [
  'histogram_quantile(0.99, sum by (le, instance, command) (rate(myapp_redis_command_duration_seconds_bucket[5m])))',
  'sum by (instance, command) (rate(myapp_redis_command_duration_seconds_bucket[5m]))',
  'count by (__name__) ({__name__=~".+"})',
];

const YAML = requireFromRepo('yaml');
const rulesFile = bundledRules;
const ruleExprs = YAML.parse(readFileSync(rulesFile, 'utf8')).groups.flatMap((g) =>
  g.rules.map((r) => r.expr),
);

const series = specSeries(SERIES);
const last = Math.floor(Date.now() / STEP_MS) * STEP_MS;
const start = last - (STEPS - 1) * STEP_MS;
// Where both servers' answers are the same: queries read at times half a step off the samples'
// grid, so that no sample lies on the edge of a window (Prometheus 2.42 counts a sample at
// `t - range` in the window, `[t - range, t]`, this server does not, `(t - range, t]`, as
// Prometheus 3), and range queries start once a `[5m]` window lies within the loaded samples (2.42
// extrapolates a counter's rate towards zero before its threshold, this server after it, as later
// Prometheus does, which differs only where a window reaches before a series' first sample).
const queryStart = Math.min(start + 5 * 60_000, last - STEP_MS) + STEP_MS / 2;
const queryEnd = last - STEP_MS / 2;
/** The restart case's query: every `up` series over the loaded range (a day at most). */
const FIRST_QUERY = `count(count_over_time(up[${MINUTES >= 1440 ? '24h' : `${MINUTES}m`}]))`;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ---- the servers this run started, ended whatever happens ------------------------------------

/** Kills of the servers alive, and the work folders to remove. */
const kills = new Set();
const workDirs = new Set();

/** Ends the run at once: kills every server started, removes their folders, exits with `code`. */
function emergencyStop(why, code) {
  console.error(`stopping: ${why}`);
  for (const kill of kills) kill();
  for (const dir of workDirs) rmSync(dir, { recursive: true, force: true });
  process.exit(code);
}
process.once('SIGINT', () => emergencyStop('interrupted', 130));
process.once('SIGTERM', () => emergencyStop('terminated', 143));
process.once('uncaughtException', (error) => emergencyStop(error.stack ?? String(error), 1));
process.once('unhandledRejection', (error) => emergencyStop(error?.stack ?? String(error), 1));
setTimeout(
  () => emergencyStop(`still running after ${TIMEOUT_MIN} min (TIMEOUT_MIN)`, 2),
  TIMEOUT_MIN * 60_000,
).unref();

/**
 * The rules and a self-scrape; `empty` for Prometheus while the range is pushed into it (a sample
 * written at "now" first would make the range's older samples out of bounds).
 */
function prometheusConfig(dir, port, empty = false, rules = [rulesFile]) {
  const file = join(dir, 'prometheus.yml');
  const full = [
    `rule_files: ${JSON.stringify(rules)}`,
    'scrape_configs:',
    '  - job_name: self',
    '    static_configs:',
    `      - targets: ['127.0.0.1:${port}']`,
  ];
  writeFileSync(
    file,
    [
      'global:',
      '  evaluation_interval: 15s',
      `  scrape_interval: ${SCRAPE_S}s`,
      ...(empty ? [] : full),
      '',
    ].join('\n'),
  );
  return file;
}

/** The heavy expressions as one recording-rule group every HEAVY_INTERVAL_S, written into `dir`. */
function heavyRulesFile(dir) {
  const file = join(dir, 'bench-heavy.rules.yml');
  const rules = HEAVY.map((expr, i) => ({ record: `bench:heavy_${i}:${HEAVY_INTERVAL_S}s`, expr }));
  writeFileSync(
    file,
    YAML.stringify({ groups: [{ name: HEAVY_GROUP, interval: `${HEAVY_INTERVAL_S}s`, rules }] }),
  );
  return file;
}

/**
 * A started server, the same for both: `configure(heavy)` writes its rules config (with the heavy
 * group or without) and returns its path; `args` are read again at each restart.
 */
async function managedServer(name, label, cmd, args, url, work, configure) {
  const launch = async () => {
    const client = httpClient(1);
    let kill;
    try {
      const proc = await launchServer(name, cmd, args, url, client, {
        timeoutMs: START_TIMEOUT_MS,
        onSpawn: (k) => kills.add((kill = k)),
      });
      return { ...proc, kill };
    } catch (error) {
      kills.delete(kill);
      throw error;
    } finally {
      client.close();
    }
  };
  let proc = await launch();
  const stopProc = async () => {
    await proc.stop();
    kills.delete(proc.kill);
  };
  return {
    name,
    /** How the output names it. */
    label,
    url,
    /** Steps after the loaded range already pushed to it (the rules case's top-up). */
    filled: 0,
    /** Adds or removes the heavy rule group: its rules config written again and reloaded. */
    async heavyRules(on) {
      configure(on);
      const client = httpClient(1);
      try {
        const res = await withTimeout(
          client.request(`${url}/-/reload`, { method: 'POST' }),
          60_000,
          `${name} reload`,
        );
        if (res.status !== 200) throw new Error(`${name} reload: ${res.status} ${res.body}`);
      } finally {
        client.close();
      }
    },
    /** Stops it (SIGTERM) and starts it again on the same data; the time from spawn to ready. */
    async restart() {
      await stopProc();
      proc = await launch();
      return proc.readyMs;
    },
    async stop() {
      try {
        await stopProc();
      } finally {
        rmSync(work, { recursive: true, force: true });
        workDirs.delete(work);
      }
    },
  };
}

async function startOurs() {
  const work = mkdtempSync(join(tmpdir(), 'bench-isolation-'));
  workDirs.add(work);
  try {
    await writeSpecStore(join(work, 'data'), series, start, STEPS, STEP_MS);
    writeFileSync(join(work, 'am.yml'), 'route:\n  receiver: none\nreceivers:\n  - name: none\n');
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const heavy = heavyRulesFile(work);
    const configure = (on) =>
      prometheusConfig(work, port, false, on ? [rulesFile, heavy] : [rulesFile]);
    return await managedServer(
      'redisx-alertmanager',
      'ours',
      ...oursCommand([
        `--config.file=${join(work, 'am.yml')}`,
        `--storage.path=${join(work, 'data')}`,
        `--web.listen-address=127.0.0.1:${port}`,
        `--rules.config.file=${configure(false)}`,
        '--log.level=error',
        // The rules case tops the samples up to now through it.
        ...(CASES.has('rules') ? ['--web.enable-remote-write-receiver'] : []),
      ]),
      url,
      work,
      configure,
    );
  } catch (error) {
    rmSync(work, { recursive: true, force: true });
    workDirs.delete(work);
    throw error;
  }
}

async function startPrometheus(prometheus) {
  const work = mkdtempSync(join(tmpdir(), 'bench-isolation-prometheus-'));
  workDirs.add(work);
  let server;
  try {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const rules = bundledRules;
    const heavy = heavyRulesFile(work);
    const configure = (on) => prometheusConfig(work, port, false, on ? [rules, heavy] : [rules]);
    server = await managedServer(
      'prometheus',
      'prometheus',
      prometheus,
      [
        `--config.file=${prometheusConfig(work, port, true)}`,
        `--storage.tsdb.path=${join(work, 'data')}`,
        `--web.listen-address=127.0.0.1:${port}`,
        '--web.enable-remote-write-receiver',
        '--web.enable-lifecycle',
        '--log.level=error',
      ],
      url,
      work,
      configure,
    );
    const client = httpClient(4);
    try {
      await withTimeout(
        pushSamples(client, url, series, start, STEPS, STEP_MS),
        START_TIMEOUT_MS * 4,
        'loading prometheus',
      );
    } finally {
      client.close();
    }
    await server.heavyRules(false);
    return server;
  } catch (error) {
    if (server) await server.stop();
    else {
      rmSync(work, { recursive: true, force: true });
      workDirs.delete(work);
    }
    throw error;
  }
}

// ---- queries ---------------------------------------------------------------------------------

/** A range query over the loaded range (off the grid), form-encoded. */
function rangeQuery(expr) {
  return new URLSearchParams({
    query: expr,
    start: String(queryStart / 1000),
    end: String(queryEnd / 1000),
    step: '15',
  }).toString();
}

/** An instant query at the loaded range's end (off the grid), form-encoded. */
function instantQuery(expr) {
  return new URLSearchParams({ query: expr, time: String(queryEnd / 1000) }).toString();
}

/** One query (`range` or `instant`), timed to the answer's last byte; throws unless 200. */
async function timedQuery(client, url, expr, kind = 'range') {
  const t0 = performance.now();
  const res = await withTimeout(
    client.request(`${url}/api/v1/${kind === 'range' ? 'query_range' : 'query'}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: kind === 'range' ? rangeQuery(expr) : instantQuery(expr),
    }),
    QUERY_TIMEOUT_MS,
    expr,
  );
  const ms = performance.now() - t0;
  if (res.status !== 200) throw new Error(`${expr}: ${res.status} ${res.body}`);
  return { ms, body: res.body };
}

const METRIC = Buffer.from('"metric":');

async function query(client, url, expr) {
  const { ms, body } = await timedQuery(client, url, expr);
  // Counted without parsing: the client's own CPU would take a core from the servers.
  let series = 0;
  for (let at = body.indexOf(METRIC); at >= 0; at = body.indexOf(METRIC, at + 1)) series++;
  return { ms, series };
}

/** A sample value as the API writes it. */
function sampleValue(text) {
  if (text === '+Inf') return Infinity;
  if (text === '-Inf') return -Infinity;
  return Number(text);
}

/** Equal, or within 1e-9 of the larger magnitude; NaN equals NaN. */
function close(a, b) {
  if (!Number.isFinite(a) || !Number.isFinite(b)) return Object.is(a, b);
  return Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b));
}

const labelsKey = (metric) =>
  JSON.stringify(Object.entries(metric).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/**
 * The first difference between two answers' `data` (series matched by their labels), or
 * undefined when they are equal; with the number of series and points compared.
 */
function compareAnswers(a, b) {
  const out = { series: 0, points: 0, difference: undefined };
  if (a.resultType !== b.resultType) {
    out.difference = `result type ${a.resultType} against ${b.resultType}`;
    return out;
  }
  if (a.resultType === 'scalar' || a.resultType === 'string') {
    const [ta, va] = a.result;
    const [tb, vb] = b.result;
    out.points = 1;
    if (ta !== tb || !close(sampleValue(va), sampleValue(vb)))
      out.difference = `${JSON.stringify(a.result)} against ${JSON.stringify(b.result)}`;
    return out;
  }
  const byKey = (result) => new Map(result.map((s) => [labelsKey(s.metric), s]));
  const ma = byKey(a.result);
  const mb = byKey(b.result);
  const keys = [...new Set([...ma.keys(), ...mb.keys()])].sort();
  for (const key of keys) {
    const sa = ma.get(key);
    const sb = mb.get(key);
    if (!sa || !sb) {
      out.difference = `${key} only in ${sa ? 'ours' : "prometheus's"} answer (${ma.size} series against ${mb.size})`;
      return out;
    }
    out.series++;
    const pa = sa.values ?? [sa.value];
    const pb = sb.values ?? [sb.value];
    for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
      if (!pa[i] || !pb[i]) {
        out.difference = `${key}: ${pa.length} points against ${pb.length}`;
        return out;
      }
      out.points++;
      if (pa[i][0] !== pb[i][0] || !close(sampleValue(pa[i][1]), sampleValue(pb[i][1]))) {
        out.difference = `${key} at ${pa[i][0]}: ${pa[i][1]} against ${pb[i][1]} at ${pb[i][0]}`;
        return out;
      }
    }
  }
  return out;
}

/** "answers equal (...)" or the first difference. */
function answerLine(cmp) {
  return cmp.difference === undefined
    ? `answers equal (${cmp.series} series, ${cmp.points} points)`
    : `answers DIFFER: ${cmp.difference}`;
}

// ---- probes ----------------------------------------------------------------------------------

/** Latency of `probe` every PROBE_MS until `until` settles (or `maxMs` has passed). */
async function probeWhile(until, probe, maxMs = LOAD_MAX_MS) {
  const samples = [];
  let done = false;
  void until.then(
    () => (done = true),
    () => (done = true),
  );
  const t0 = performance.now();
  for (let i = 0; !done && i < maxMs / PROBE_MS && performance.now() - t0 < maxMs; i++) {
    const t = performance.now();
    await withTimeout(probe(), PROBE_TIMEOUT_MS, 'probe');
    samples.push(performance.now() - t);
    await sleep(PROBE_MS);
  }
  return samples;
}

const line = (s) => `p50 ${fmt(s.p50)} ms, p99 ${fmt(s.p99)} ms, worst ${fmt(s.worst)} ms (${s.n})`;

function alertBody(i) {
  return JSON.stringify([
    { labels: { alertname: 'BenchProbe', probe: String(i % 50) }, annotations: { summary: 'x' } },
  ]);
}

/** `/-/healthy` and a one-alert POST, through `client`. */
function probesOf(client, url) {
  let posted = 0;
  const healthy = async () => {
    const res = await client.request(`${url}/-/healthy`);
    if (res.status !== 200) throw new Error(`/-/healthy: ${res.status}`);
  };
  const post = async () => {
    const res = await client.request(`${url}/api/v2/alerts`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: alertBody(posted++),
    });
    if (res.status !== 200) throw new Error(`POST /api/v2/alerts: ${res.status} ${res.body}`);
  };
  return { healthy, post };
}

/** Sum of a counter's series in a server's own metrics. */
const sum = (xs) => xs.reduce((a, b) => a + b, 0);

function counterSum(text, name, labelPart = '') {
  let sum = 0;
  for (const m of text.matchAll(new RegExp(`^${name}(\\{[^}]*\\})? (\\S+)$`, 'gm')))
    if ((m[1] ?? '').includes(labelPart)) sum += Number(m[2]);
  return sum;
}

const metricsText = async (client, url) =>
  (await withTimeout(client.request(`${url}/metrics`), 60_000, '/metrics')).body.toString();

// ---- case: answers ---------------------------------------------------------------------------

/** Each heavy query on one server: its answers, its first run and the median of ROUNDS more. */
async function heavyAnswers(server) {
  const client = httpClient(1);
  try {
    const out = [];
    for (const expr of HEAVY) {
      const first = await timedQuery(client, server.url, expr, 'range');
      const instant = await timedQuery(client, server.url, expr, 'instant');
      const warm = [];
      for (let r = 0; r < ROUNDS; r++) warm.push((await timedQuery(client, server.url, expr)).ms);
      out.push({
        firstMs: first.ms,
        warmMs: median(warm),
        instantMs: instant.ms,
        range: JSON.parse(first.body).data,
        instant: JSON.parse(instant.body).data,
      });
    }
    return out;
  } finally {
    client.close();
  }
}

/** Prints the answers case; returns whether every answer was equal (undefined: not compared). */
async function answersCase(ours, theirs) {
  console.log(
    `heavy queries: range over the loaded range at 15 s steps (${(queryEnd - queryStart) / 60_000} min) and instant at its end; first run, then the median of ${ROUNDS}`,
  );
  const mine = await heavyAnswers(ours);
  const other = theirs ? await heavyAnswers(theirs) : undefined;
  let allEqual = other ? true : undefined;
  mine.forEach((m, i) => {
    console.log(`  heavy query ${i + 1}:`);
    const times = (x) =>
      `first ${fmt(x.firstMs, 0)} ms, then ${fmt(x.warmMs, 0)} ms (instant ${fmt(x.instantMs, 0)} ms)`;
    console.log(`    ours:       ${times(m)}`);
    if (!other) return;
    const o = other[i];
    console.log(`    prometheus: ${times(o)}`);
    const range = compareAnswers(m.range, o.range);
    const instant = compareAnswers(m.instant, o.instant);
    const equal = range.difference === undefined && instant.difference === undefined;
    allEqual &&= equal;
    console.log(`    range: ${answerLine(range)}; instant: ${answerLine(instant)}`);
    console.log(
      `    ratio ours/prometheus: first ${fmt(m.firstMs / o.firstMs, 2)}, then ${fmt(m.warmMs / o.warmMs, 2)}${equal ? '' : ' (of DIFFERENT answers)'}`,
    );
  });
  if (other)
    console.log(`  ${allEqual ? 'answers equal' : 'answers DIFFER'} for every heavy query`);
  return allEqual;
}

// ---- case: rules -----------------------------------------------------------------------------

/** The samples after the loaded range, made once, so every server gets the same ones. */
const extra = { stream: undefined, steps: [] };

/** Makes the steps after the loaded range up to `t` (a day of them at most). */
function stepsUntil(t) {
  if (!extra.stream) {
    extra.stream = new SampleStream(series, start, STEP_MS);
    for (let k = 0; k < STEPS; k++) extra.stream.next(() => {});
  }
  for (let k = 0; extra.stream.t <= t && k < 5_760; k++) {
    const values = new Float64Array(series.length);
    const at = extra.stream.t;
    extra.stream.next((i, _t, v) => (values[i] = v));
    extra.steps.push({ t: at, values });
  }
}

/** Sends a server the steps from the end of what it has up to now; how many. */
async function topUp(server) {
  stepsUntil(Math.floor(Date.now() / STEP_MS) * STEP_MS);
  const pending = extra.steps.slice(server.filled);
  if (pending.length === 0) return 0;
  const client = httpClient(1);
  try {
    for (let from = 0; from < series.length; from += TOPUP_SERIES) {
      const part = series.slice(from, from + TOPUP_SERIES);
      let k = 0;
      const stream = {
        next(emit) {
          const { t, values } = pending[k++];
          for (let j = 0; j < part.length; j++) emit(j, t, values[from + j]);
        },
      };
      await withTimeout(
        pushStream(client, server.url, part, stream, pending.length, 1),
        START_TIMEOUT_MS,
        `${server.name} top-up`,
      );
    }
  } finally {
    client.close();
  }
  server.filled += pending.length;
  return pending.length;
}

/** The heavy group as `/api/v1/rules` shows it, or undefined. */
async function heavyGroup(client, url) {
  const res = await withTimeout(client.request(`${url}/api/v1/rules`), 60_000, '/api/v1/rules');
  if (res.status !== 200) throw new Error(`/api/v1/rules: ${res.status} ${res.body}`);
  return JSON.parse(res.body).data.groups.find((g) => g.name === HEAVY_GROUP);
}

/** The heavy group on one server, probed for RULES_S. */
async function heavyRulesWindow(server, { postAlerts }) {
  const probeClient = httpClient(2);
  const reader = httpClient(1);
  try {
    const pushed = await topUp(server);
    await server.heavyRules(true);
    // Its first two evaluations (the first after a load compiles code) are not counted.
    const settled = new Set();
    const settleMs = 4 * HEAVY_INTERVAL_S * 1000 + 60_000;
    for (let t0 = Date.now(), i = 0; settled.size < 2 && Date.now() - t0 < settleMs; i++) {
      const g = await heavyGroup(reader, server.url);
      if (g && Date.parse(g.lastEvaluation) > 0) settled.add(g.lastEvaluation);
      await sleep(250);
    }
    if (settled.size < 2) throw new Error(`${server.name}: the heavy rule group did not evaluate`);

    const groupLabel = `;${HEAVY_GROUP}"`;
    const before = await metricsText(reader, server.url);
    const windowStart = Date.now();
    const windowEnd = sleep(RULES_S * 1000);
    const { healthy, post } = probesOf(probeClient, server.url);
    const evaluations = new Map();
    const sampleGroup = async () => {
      for (let i = 0; Date.now() - windowStart < RULES_S * 1000 && i < RULES_S + 1; i++) {
        const g = await heavyGroup(reader, server.url);
        if (g && Date.parse(g.lastEvaluation) >= windowStart) evaluations.set(g.lastEvaluation, g);
        await sleep(1000);
      }
    };
    const maxMs = RULES_S * 1000 + PROBE_TIMEOUT_MS;
    const [healthySamples, postSamples] = await Promise.all([
      probeWhile(windowEnd, healthy, maxMs),
      postAlerts ? probeWhile(windowEnd, post, maxMs) : Promise.resolve([]),
      sampleGroup(),
    ]);
    const afterText = await metricsText(reader, server.url);
    const missed = (text) =>
      counterSum(text, 'prometheus_rule_group_iterations_missed_total', groupLabel);
    const iterations = (text) =>
      counterSum(text, 'prometheus_rule_group_iterations_total', groupLabel);
    const times = [...evaluations.values()].map((g) => g.evaluationTime * 1000);
    const latest = [...evaluations.values()].at(-1) ?? (await heavyGroup(reader, server.url));
    return {
      name: server.label,
      pushed,
      healthy: latencyStats(healthySamples),
      post: postAlerts ? latencyStats(postSamples) : undefined,
      groupMs: times.length ? { median: median(times), max: Math.max(...times) } : undefined,
      evaluations: times.length,
      missedWindow: missed(afterText) - missed(before),
      missedTotal: missed(afterText),
      iterationsWindow: iterations(afterText) - iterations(before),
      iterationsTotal: iterations(afterText),
      health: (latest?.rules ?? []).map(
        (r) => `${r.name} ${r.health}${r.lastError ? ` (${r.lastError})` : ''}`,
      ),
    };
  } finally {
    probeClient.close();
    reader.close();
    await server.heavyRules(false);
  }
}

async function rulesCase(ours, theirs) {
  console.log(
    `heavy rules: the three heavy queries as recording rules, one group every ${HEAVY_INTERVAL_S} s, on one server at a time; probes every ${PROBE_MS} ms for ${RULES_S} s`,
  );
  const results = [await heavyRulesWindow(ours, { postAlerts: true })];
  if (theirs) results.push(await heavyRulesWindow(theirs, { postAlerts: false }));
  const pad = (name) => `${name}:`.padEnd(12);
  for (const r of results) {
    const target = (s) => (s.worst < 50 ? 'met' : 'NOT met');
    console.log(`  ${pad(r.name)}(${r.pushed} steps topped up before)`);
    console.log(
      `    /-/healthy:     ${line(r.healthy)}; target worst < 50 ms ${target(r.healthy)}`,
    );
    if (r.post)
      console.log(`    POST one alert: ${line(r.post)}; target worst < 50 ms ${target(r.post)}`);
    console.log(
      `    group evaluation time: ${r.groupMs ? `median ${fmt(r.groupMs.median, 1)} ms, max ${fmt(r.groupMs.max, 1)} ms` : 'none seen'} (${r.evaluations} evaluations in the window)`,
    );
    console.log(
      `    iterations missed: ${r.missedWindow} of ${r.iterationsWindow} in the window, ${r.missedTotal} of ${r.iterationsTotal} since the group was added`,
    );
    console.log(`    rules: ${r.health.join('; ')}`);
  }
  if (results.length === 2) {
    const [m, o] = results;
    const ratio = (k) => (m.groupMs && o.groupMs ? fmt(m.groupMs[k] / o.groupMs[k], 2) : '-');
    console.log(
      `  ratio ours/prometheus: group time median ${ratio('median')}, max ${ratio('max')} (target <= 1); worst /-/healthy ${fmt(m.healthy.worst, 1)} vs ${fmt(o.healthy.worst, 1)} ms`,
    );
  }
}

// ---- case: restart ---------------------------------------------------------------------------

/** One server restarted: ready time, the first query and the same query warm. */
async function restartOne(server) {
  const readyMs = await server.restart();
  const client = httpClient(1);
  try {
    const cold = await timedQuery(client, server.url, FIRST_QUERY, 'instant');
    const warm = [];
    for (let r = 0; r < ROUNDS; r++)
      warm.push((await timedQuery(client, server.url, FIRST_QUERY, 'instant')).ms);
    // Then once the start's own work (the rules' first evaluations, collection) has settled.
    await sleep(SETTLE_S * 1000);
    const settled = [];
    for (let r = 0; r < 10 * ROUNDS; r++)
      settled.push((await timedQuery(client, server.url, FIRST_QUERY, 'instant')).ms);
    return {
      readyMs,
      coldMs: cold.ms,
      warmMs: median(warm),
      settledMs: median(settled),
      data: JSON.parse(cold.body).data,
    };
  } finally {
    client.close();
  }
}

async function restartCase(ours, theirs) {
  console.log(
    `first query after a restart: ${FIRST_QUERY} at the loaded range's end, first, then the median of ${ROUNDS}, then of ${10 * ROUNDS} after ${SETTLE_S} s`,
  );
  const mine = await restartOne(ours);
  const other = theirs ? await restartOne(theirs) : undefined;
  const show = (name, r) =>
    console.log(
      `  ${`${name}:`.padEnd(12)}ready ${fmt(r.readyMs, 0)} ms after the start; first query ${fmt(r.coldMs, 1)} ms, warm ${fmt(r.warmMs, 1)} ms, ${SETTLE_S} s later ${fmt(r.settledMs, 1)} ms (answer ${r.data.result[0]?.value?.[1]})`,
    );
  show('ours', mine);
  if (!other) return;
  show('prometheus', other);
  const cmp = compareAnswers(mine.data, other.data);
  console.log(
    `  ratio ours/prometheus: first query ${fmt(mine.coldMs / other.coldMs, 2)} (target <= 2), warm ${fmt(mine.warmMs / other.warmMs, 2)}, later ${fmt(mine.settledMs / other.settledMs, 2)}, ready ${fmt(mine.readyMs / other.readyMs, 2)}; ${answerLine(cmp)}`,
  );
}

// ---- case: queries ---------------------------------------------------------------------------

/** Everything measured on one server. */
async function measure(name, url, { postAlerts }) {
  const probes = httpClient(2);
  const queries = httpClient(8);
  const result = { name };
  try {
    // Warm up: each heavy query once (its time kept: the first run of this case).
    result.firstRuns = [];
    for (const expr of HEAVY) result.firstRuns.push((await query(queries, url, expr)).ms);
    const { healthy, post } = probesOf(probes, url);
    const idleWait = sleep(3_000);
    result.idleHealthy = latencyStats(await probeWhile(idleWait, healthy));

    // Stall: the heavy queries back to back, ROUNDS times, probed all along.
    const before = await metricsText(probes, url);
    const loadStart = Date.now();
    const heavyRun = (async () => {
      for (let r = 0; r < ROUNDS; r++) for (const expr of HEAVY) await query(queries, url, expr);
    })();
    const [healthySamples, postSamples] = await Promise.all([
      probeWhile(heavyRun, healthy),
      postAlerts ? probeWhile(heavyRun, post) : Promise.resolve([]),
    ]);
    await heavyRun;
    const loadEnd = Date.now();
    result.loadHealthy = latencyStats(healthySamples);
    if (postAlerts) result.loadPost = latencyStats(postSamples);
    const after = await metricsText(probes, url);
    result.missed =
      counterSum(after, 'prometheus_rule_group_iterations_missed_total') -
      counterSum(before, 'prometheus_rule_group_iterations_missed_total');
    // Scrape lateness: the gaps between the self-scrape's samples during the load, past its interval.
    const upRes = await probes.request(
      `${url}/api/v1/query?query=${encodeURIComponent(`up{job="self"}[${Math.ceil((loadEnd - loadStart) / 1000) + 10}s]`)}&time=${loadEnd / 1000}`,
    );
    const values = JSON.parse(upRes.body).data.result[0]?.values ?? [];
    let lateness = 0;
    for (let i = 1; i < values.length; i++)
      lateness = Math.max(lateness, (values[i][0] - values[i - 1][0] - SCRAPE_S) * 1000);
    result.scrapeLateness = lateness;

    // Query time: median of ROUNDS runs each, nothing else running.
    result.heavy = [];
    for (const expr of HEAVY) {
      const runs = [];
      for (let r = 0; r < ROUNDS; r++) runs.push(await query(queries, url, expr));
      result.heavy.push({ ms: median(runs.map((x) => x.ms)), series: runs[0].series });
    }
    const ruleRuns = [];
    for (let r = 0; r < ROUNDS; r++) {
      let total = 0;
      for (const expr of ruleExprs) total += (await query(queries, url, expr)).ms;
      ruleRuns.push(total);
    }
    result.rules = median(ruleRuns);

    // Parallelism: four heavy queries one after another, then four at once. The first times
    // queries overlap, ours starts its second query thread (threads start on demand) and that
    // thread compiles the engine's hot code for itself (each thread has its own JIT): those
    // WARM runs are reported apart. Then PAIRS pairs of runs (the two cores are shared with the
    // other server, this client and the kernel, so one pair varies by ±20% and more): the median
    // of their ratios.
    const four = [HEAVY[0], HEAVY[1], HEAVY[0], HEAVY[1]];
    // The server's CPU time around each run, to tell how many cores it kept busy.
    const cpuSeconds = async () =>
      counterSum(await metricsText(probes, url), 'process_cpu_seconds_total');
    const timed = async (run) => {
      const cpu0 = await cpuSeconds();
      const t0 = performance.now();
      await run();
      const ms = performance.now() - t0;
      return { ms, cpuMs: ((await cpuSeconds()) - cpu0) * 1000 };
    };
    const serial = () =>
      timed(async () => {
        for (const expr of four) await query(queries, url, expr);
      });
    const atOnce = () => timed(() => Promise.all(four.map((expr) => query(queries, url, expr))));
    result.firstParallelMs = [];
    for (let r = 0; r < WARM; r++) result.firstParallelMs.push((await atOnce()).ms);
    const pairs = [];
    for (let r = 0; r < PAIRS; r++)
      pairs.push({ serial: await serial(), parallel: await atOnce() });
    const ratio = (p) => p.serial.ms / p.parallel.ms;
    const middle = [...pairs].sort((a, b) => ratio(a) - ratio(b))[Math.floor(pairs.length / 2)];
    result.serialMs = middle.serial.ms;
    result.parallelMs = middle.parallel.ms;
    result.parallelRatios = pairs.map(ratio);
    const cores = (runs) => sum(runs.map((x) => x.cpuMs)) / sum(runs.map((x) => x.ms));
    result.serialCores = cores(pairs.map((p) => p.serial));
    result.parallelCores = cores(pairs.map((p) => p.parallel));
    const metrics = await metricsText(probes, url);
    result.rss = Number(/^process_resident_memory_bytes (\S+)$/m.exec(metrics)?.[1] ?? NaN);
    return result;
  } finally {
    probes.close();
    queries.close();
  }
}

function report(r) {
  console.log(`${r.name}:`);
  console.log(`  /-/healthy idle:              ${line(r.idleHealthy)}`);
  console.log(`  /-/healthy under queries:     ${line(r.loadHealthy)}`);
  if (r.loadPost) console.log(`  POST one alert under queries: ${line(r.loadPost)}`);
  console.log(
    `  rule iterations missed ${r.missed}, self-scrape lateness ${fmt(r.scrapeLateness, 0)} ms`,
  );
  r.heavy.forEach((h, i) =>
    console.log(
      `  heavy query ${i + 1}: ${fmt(h.ms, 0)} ms (${h.series} series; first run in this case ${fmt(r.firstRuns[i], 0)} ms)`,
    ),
  );
  console.log(`  17 rule expressions as range queries: ${fmt(r.rules, 0)} ms`);
  console.log(`  resident memory after the queries: ${fmt(r.rss / 2 ** 20, 0)} MiB`);
  console.log(
    `  four heavy queries: one after another ${fmt(r.serialMs, 0)} ms, at once ${fmt(r.parallelMs, 0)} ms, throughput x${fmt(r.serialMs / r.parallelMs, 2)}, the median of ${r.parallelRatios.map((x) => `x${fmt(x, 2)}`).join(', ')} (the first ${WARM} times at once: ${r.firstParallelMs.map((x) => fmt(x, 0)).join(', ')} ms); cores busy one after another ${fmt(r.serialCores, 2)}, at once ${fmt(r.parallelCores, 2)}`,
  );
}

async function queriesCase(ours, theirs, answersEqual) {
  const mine = await measure('ours', ours.url, { postAlerts: true });
  report(mine);
  if (!theirs) return;
  const other = await measure('prometheus', theirs.url, { postAlerts: false });
  report(other);
  const ratios = mine.heavy.map((h, i) => fmt(h.ms / other.heavy[i].ms, 2)).join(', ');
  console.log(
    `ratio ours/prometheus: heavy queries ${ratios} (${answersEqual ? 'answers equal' : 'answers DIFFER'}), rule expressions ${fmt(mine.rules / other.rules, 2)} (target <= 1); worst /-/healthy under queries ${fmt(mine.loadHealthy.worst, 0)} vs ${fmt(other.loadHealthy.worst, 0)} ms`,
  );
}

// ---- the run ---------------------------------------------------------------------------------

// The machine's load beside the numbers: another process on the two cores moves them all.
const load = () =>
  loadavg()
    .map((x) => fmt(x, 2))
    .join(' ');
console.log(
  `${SERIES} series, ${MINUTES} min at 15 s, ${ruleExprs.length} rules; probes every ${PROBE_MS} ms; ${ROUNDS} rounds; cases ${ALL_CASES.filter((c) => CASES.has(c)).join(', ')}; load average ${load()}`,
);
const prometheusBin = findPeer('prometheus');
let ours;
let theirs;
try {
  ours = await startOurs();
  theirs = prometheusBin ? await startPrometheus(prometheusBin) : undefined;
  if (!theirs) skipPeer('prometheus', 'not installed (apt-get install prometheus)');
  let answersEqual;
  if (CASES.has('answers')) answersEqual = await answersCase(ours, theirs);
  if (CASES.has('rules')) await rulesCase(ours, theirs);
  if (CASES.has('restart')) await restartCase(ours, theirs);
  if (CASES.has('queries')) await queriesCase(ours, theirs, answersEqual);
} finally {
  await ours?.stop();
  await theirs?.stop();
  console.log(`load average at the end ${load()}`);
}
