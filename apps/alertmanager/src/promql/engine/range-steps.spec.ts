import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Labels } from '../../tsdb/labels';
import { MemoryStore } from '../../tsdb/memory-store';
import { PromqlEngine } from './engine';

// A range query walks its steps with state carried from one step to the next (windows that slide,
// counter resets found once, points shared between series, aggregation cells); an instant query
// starts afresh. Both must give the same values, bit for bit, on data with counter resets, gaps,
// stale markers, NaN and infinities.

const { exprs, histogramExprs, quantiles } = JSON.parse(
  readFileSync(join(__dirname, 'testdata', 'range-steps-exprs.json'), 'utf8'),
) as { exprs: string[]; histogramExprs: string[]; quantiles: number[] };

/** Bucket bounds as scraped: two spellings of one bound, and one that is not a number. */
const BOUNDS = ['0.1', '0.5', '1', '1.0', '5', '+Inf', 'fast'];

const STEP = 15_000;

/** A deterministic pseudo-random sequence, so a failure repeats. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

function store(): MemoryStore {
  const s = new MemoryStore();
  const next = random(7);
  for (let i = 0; i < 12; i++) {
    const job = `j${i % 3}`;
    const counter = Labels.fromRecord({ __name__: 'requests_total', job, instance: `i${i}` });
    const gauge = Labels.fromRecord({ __name__: 'gauge', job, instance: `i${i}` });
    let total = 0;
    for (let t = 0; t <= 20 * 60_000; t += STEP) {
      const roll = next();
      if (roll < 0.05) continue; // a missed scrape
      if (roll < 0.08) {
        s.append(counter, t, NaN, true);
        s.append(gauge, t, NaN, true);
        continue;
      }
      total = roll < 0.12 ? next() * 10 : total + Math.floor(next() * 100);
      s.append(counter, t + (i % 4) * 1_000, total);
      const special = roll > 0.98 ? Infinity : roll > 0.97 ? NaN : undefined;
      s.append(gauge, t + (i % 3) * 500, special ?? (next() - 0.5) * 1e6);
      // Cumulative buckets, now and then not monotonic, as a scrape of a changing histogram is.
      let cumulative = total;
      for (const le of i % 4 === 3 ? BOUNDS.slice(0, 6) : BOUNDS) {
        cumulative += Math.floor(next() * 50) - (next() < 0.05 ? 60 : 0);
        const bucket = Labels.fromRecord({
          __name__: 'latency_bucket',
          job,
          instance: `i${i}`,
          le,
        });
        s.append(bucket, t + (i % 2) * 2_000, cumulative);
      }
    }
  }
  return s;
}

describe('a range query at each step equals the instant query there', () => {
  const engine = new PromqlEngine(store());
  const start = 2 * 60_000;
  const end = 18 * 60_000;

  it.each(exprs)('%s', (expr) => {
    const range = engine.rangeQuery(expr, start, end, STEP);
    if (range.type !== 'matrix') throw new Error(range.type);
    const fromRange = new Map<string, number>();
    for (const series of range.series) {
      series.t.forEach((t, i) => fromRange.set(`${series.metric.key}@${t}`, series.f[i]));
    }
    const fromInstants = new Map<string, number>();
    for (let t = start; t <= end; t += STEP) {
      const instant = engine.instantQuery(expr, t);
      if (instant.type !== 'vector') throw new Error(instant.type);
      for (const sample of instant.samples) {
        fromInstants.set(`${sample.metric.key}@${t}`, sample.f);
      }
    }
    expect(fromRange.size).toBeGreaterThan(0);
    expect([...fromRange.entries()].sort()).toEqual([...fromInstants.entries()].sort());
  });
});

describe('histogram_quantile over all steps at once equals the step-by-step histogram_quantiles', () => {
  const engine = new PromqlEngine(store(), { parser: { experimentalFunctions: true } });
  const cases = histogramExprs.flatMap((expr) => quantiles.map((q) => [expr, q] as const));

  it.each(cases)('%s at φ %s', (expr, q) => {
    const once = engine.rangeQuery(`histogram_quantile(${q}, ${expr})`, 60_000, 19 * 60_000, STEP);
    const stepwise = engine.rangeQuery(
      `histogram_quantiles(${expr}, "q", ${q})`,
      60_000,
      19 * 60_000,
      STEP,
    );
    if (once.type !== 'matrix' || stepwise.type !== 'matrix') throw new Error('not a matrix');
    const points = (series: typeof once.series) =>
      series.map((s) => [s.metric.without(['q']).key, s.t, s.f]);
    expect(once.series.length).toBeGreaterThan(0);
    expect(points(once.series)).toEqual(points(stepwise.series));
    // The same notes, each at its own argument's place in the two queries.
    const notes = (result: typeof once) =>
      [...result.warnings, ...result.infos].map((note) => note.replace(/ \(\d+:\d+\)$/, ''));
    expect(notes(once)).toEqual(notes(stepwise));
  });
});
