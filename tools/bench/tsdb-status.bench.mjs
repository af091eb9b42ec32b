// What `/api/v1/status/tsdb` costs the event loop with 100,000 series in memory: the whole
// answer, read in slices between turns of the event loop, and the longest turn it takes (the
// gaps between ticks of a 0 ms interval while it runs), for two shapes of series: 200 metric
// names on 1,000 instances, and the same with a label unique to each series (100,000 more label
// pairs). Every request recomputes the cardinality lists (the clock moves past the 30 s cache).
import { fmt, median, requireFromRepo } from './bench-support.mjs';

const { MemoryStore } = requireFromRepo('./apps/alertmanager/dist/tsdb/memory-store.js');
const { Labels } = requireFromRepo('./apps/alertmanager/dist/tsdb/labels.js');
const { TsdbStatus } = requireFromRepo('./apps/alertmanager/dist/api/prometheus/tsdb-status.js');

const SERIES = Number(process.env.SERIES ?? 100_000);
const ROUNDS = Number(process.env.ROUNDS ?? 50);

function store(unique) {
  const s = new MemoryStore();
  for (let i = 0; i < SERIES; i++) {
    const labels = {
      __name__: `metric_${i % 200}`,
      job: `job_${i % 10}`,
      instance: `host-${Math.floor(i / 200) % 1000}:9100`,
    };
    if (unique) labels.id = `id-${i}`;
    s.append(Labels.fromRecord(labels), 1_000, i);
  }
  return s;
}

for (const [name, unique] of [
  ['names x instances', false],
  ['a label unique to each series', true],
]) {
  let now = 0;
  const status = new TsdbStatus(store(unique), { now: () => (now += 31_000) });
  globalThis.gc?.();
  await new Promise((resolve) => setTimeout(resolve, 50));
  const whole = [];
  const turns = [];
  for (let r = 0; r < ROUNDS; r++) {
    let last = performance.now();
    let longest = 0;
    const tick = setInterval(() => {
      const t = performance.now();
      longest = Math.max(longest, t - last);
      last = t;
    }, 0);
    const start = performance.now();
    await status.answer();
    const end = performance.now();
    clearInterval(tick);
    whole.push(end - start);
    turns.push(Math.max(longest, end - last));
  }
  console.log(
    `${SERIES} series, ${name}: answer ${fmt(median(whole))} ms (median), longest turn ` +
      `${fmt(median(turns))} ms median, ${fmt(Math.max(...turns))} ms max, first request ${fmt(turns[0])} ms`,
  );
}
