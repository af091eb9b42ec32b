// The cost of one append on the main thread: `SERIES` series (100,000 by default) of three labels,
// `STEPS` samples each (30), appended one series after another as a scrape appends them, straight
// into the in-memory store (no log): the series' state, its open chunk's encoder and the chunk
// table. Prints nanoseconds per append for each of `ROUNDS` fresh stores (3) and their median.
// Ours alone: no peer runs in this process.
import { median, requireFromRepo } from './bench-support.mjs';

const SERIES = Number(process.env.SERIES ?? 100_000);
const STEPS = Number(process.env.STEPS ?? 30);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const { MemoryStore, Labels } = requireFromRepo('./apps/alertmanager/dist/tsdb/index.js');

const labels = Array.from({ length: SERIES }, (_, i) =>
  Labels.fromRecord({ __name__: `m${i % 50}`, instance: `i${i % 1000}`, id: String(i) }),
);
const perAppend = [];
for (let round = 0; round < ROUNDS; round++) {
  const store = new MemoryStore();
  const series = labels.map((l) => store.seriesFor(l));
  const started = process.hrtime.bigint();
  for (let step = 0; step < STEPS; step++) {
    for (let i = 0; i < SERIES; i++) series[i].append(step * 15_000, i + step);
  }
  const ns = Number(process.hrtime.bigint() - started) / (SERIES * STEPS);
  perAppend.push(ns);
  console.log(`round ${round + 1}: ${ns.toFixed(0)} ns per append`);
  store.clear();
  globalThis.gc?.();
}
console.log(
  `${SERIES} series x ${STEPS} samples: median ${median(perAppend).toFixed(0)} ns per append`,
);
