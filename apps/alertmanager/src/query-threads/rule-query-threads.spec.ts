import { recordingLogger } from '../logging/testing/recording-logger';
import { PromqlEngine } from '../promql';
import { InProcessRuleQueries } from '../rules/rule-queries';
import { Labels } from '../tsdb/labels';
import { MemoryStore } from '../tsdb/memory-store';
import { QueryThreadPool } from './query-thread-pool';
import { RuleQueryThreads } from './rule-query-threads';

const NOW = 1_700_000_000_000;
const STEP = 15_000;
const up = (instance: string) => Labels.fromRecord({ __name__: 'up', job: 'redis', instance });

/** Rule reads answered by a query thread and on the calling thread, to compare. */
function sides(store: MemoryStore) {
  const pool = new QueryThreadPool(store, {
    threads: 1,
    maxConcurrency: 1,
    keepWarm: 1,
    engine: { timeoutMs: 60_000 },
    logger: recordingLogger(),
  });
  return {
    pool,
    threaded: new RuleQueryThreads(pool, 60_000),
    inline: new InProcessRuleQueries(new PromqlEngine(store), store),
  };
}

/** Samples or errors as plain data. */
const plain = (results: readonly (readonly { metric: Labels; f: number }[] | Error)[]) =>
  results.map((r) =>
    r instanceof Error ? { error: r.message } : r.map((s) => [s.metric.toRecord(), s.f]),
  );

describe('RuleQueryThreads: rule reads on a query thread', () => {
  const store = new MemoryStore();
  const { pool, threaded, inline } = sides(store);

  beforeAll(() => {
    for (let s = 0; s < 40; s++) {
      const t = NOW - (39 - s) * STEP;
      store.append(up('a'), t, 1);
      store.append(up('b'), t, s % 5 === 0 ? 0 : 1);
    }
    store.append(up('b'), NOW + STEP, NaN, true);
  });
  afterAll(() => pool.close());

  it.each([
    ['a vector', 'up'],
    ['an aggregation', 'sum by (job) (rate(up[5m]))'],
    ['a scalar', 'scalar(sum(up)) * 2'],
    ['an empty vector', 'up{instance="none"}'],
    ['a matrix, which a rule cannot take', 'up[1m]'],
    ['a string, which a rule cannot take', '"text"'],
    ['a parse error', 'sum(up'],
    ['an evaluation error', 'up + on(job) up'],
  ])('answers %s as the in-process engine does', async (_name, expr) => {
    const [fromThread, fromHere] = await Promise.all([
      threaded.queryAll([expr, 'count(up)'], NOW),
      inline.queryAll([expr, 'count(up)'], NOW),
    ]);
    expect(plain(fromThread)).toEqual(plain(fromHere));
  });

  it('reads the last sample of series named exactly, staleness markers included', async () => {
    const series = [up('a'), up('b'), up('c'), Labels.fromRecord({ __name__: 'up', job: 'redis' })];
    const mint = NOW - 3_600_000;
    const maxt = NOW + STEP;
    const fromThread = await threaded.lastSamples(series, mint, maxt);
    expect(fromThread).toEqual(await inline.lastSamples(series, mint, maxt));
    expect(fromThread).toEqual([
      { t: NOW, v: 1, stale: false },
      { t: NOW + STEP, v: expect.any(Number), stale: true },
      undefined,
      undefined,
    ]);
  });

  it('sees what the main thread appended just before (a recording rule read by the next)', async () => {
    const recorded = Labels.fromRecord({ __name__: 'job:up:sum', job: 'redis' });
    store.append(recorded, NOW, 2);
    const [result] = await threaded.queryAll(['job:up:sum'], NOW);
    expect(plain([result])).toEqual([[[{ __name__: 'job:up:sum', job: 'redis' }, 2]]]);
  });

  it('answers every expression with the error when the pool is closed', async () => {
    const closed = sides(new MemoryStore());
    await closed.pool.close();
    const results = await closed.threaded.queryAll(['up', 'sum(up)'], NOW);
    expect(plain(results)).toEqual([{ error: 'shutting down' }, { error: 'shutting down' }]);
    await expect(closed.threaded.lastSamples([up('a')], 0, NOW)).rejects.toThrow('shutting down');
  });
});
