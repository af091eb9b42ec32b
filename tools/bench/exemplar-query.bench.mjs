// What `/api/v1/query_exemplars` costs the event loop with a full exemplar store (the default
// `max_exemplars`, 100,000: ten exemplars of each of 10,000 histogram bucket series): a query
// over every series (`{__name__=~".+"}`, megabytes of JSON) and one over a hundred, each answered
// in slices between turns of the event loop. Prints the whole answer's time and the longest
// turn it took (the gaps between ticks of a 1 ms interval while it runs), the median of `ROUNDS`.
import { fmt, median, requireFromRepo } from './bench-support.mjs';

const { CircularExemplarStore, ExemplarMetrics } = requireFromRepo(
  './apps/alertmanager/dist/tsdb/exemplars/index.js',
);
const { Labels } = requireFromRepo('./apps/alertmanager/dist/tsdb/labels.js');
const { queryExemplars } = requireFromRepo(
  './apps/alertmanager/dist/api/prometheus/exemplars-api.js',
);
const { Registry } = requireFromRepo('prom-client');

const EXEMPLARS = Number(process.env.EXEMPLARS ?? 100_000);
const PER_SERIES = 10;
const ROUNDS = Number(process.env.ROUNDS ?? 5);

const store = new CircularExemplarStore(EXEMPLARS, new ExemplarMetrics(new Registry()));
const start = Date.now() - 3_600_000;
const series = Array.from({ length: EXEMPLARS / PER_SERIES }, (_, i) =>
  Labels.fromRecord({
    __name__: 'myapp_redis_command_duration_seconds_bucket',
    instance: `redis-${i % 100}:6379`,
    command: `cmd${i % 20}`,
    le: String(i % 10),
    shard: String(i),
  }),
);
for (let k = 0; k < PER_SERIES; k++) {
  for (let i = 0; i < series.length; i++) {
    store.add(series[i], {
      labels: Labels.fromRecord({ trace_id: (i * 7919 + k).toString(16).padStart(32, '0') }),
      value: (i % 97) / 100,
      timestampMs: start + k * 15_000,
      hasTimestamp: true,
    });
  }
}

console.log(`${EXEMPLARS} exemplars of ${series.length} series; median of ${ROUNDS} rounds`);
for (const query of [
  '{__name__=~".+"}',
  'myapp_redis_command_duration_seconds_bucket{instance="redis-1:6379"}',
]) {
  const totals = [];
  const turns = [];
  let bytes = 0;
  for (let r = 0; r < ROUNDS; r++) {
    let last = performance.now();
    let longest = 0;
    const ticker = setInterval(() => {
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
    }, 1);
    const t0 = performance.now();
    const answer = await queryExemplars(store, new URLSearchParams({ query }));
    totals.push(performance.now() - t0);
    clearInterval(ticker);
    turns.push(longest);
    bytes = answer?.text.length ?? 0;
  }
  console.log(
    `  ${query}: ${fmt(median(totals), 0)} ms in all, longest turn ${fmt(median(turns), 1)} ms (worst ${fmt(Math.max(...turns), 1)}), ${fmt(bytes / 1e6, 1)} MB`,
  );
}
