import { recordingLogger } from '../logging/testing/recording-logger';
import { Labels } from '../tsdb/labels';
import { MemoryStore } from '../tsdb/memory-store';
import { QueryThreadPool } from './query-thread-pool';
import { RuleQueryThreads } from './rule-query-threads';
import { ThreadStarts } from './thread-starts';

const NOW = 1_700_000_000_000;
const up = (instance: string) => Labels.fromRecord({ __name__: 'up', job: 'redis', instance });

describe('ThreadStarts: query threads started before the store has loaded', () => {
  it('hands out each thread started once, then new ones', async () => {
    const starts = new ThreadStarts(1);
    const early = starts.take();
    // Taken: the next is a new thread.
    const later = starts.take();
    expect(later).not.toBe(early);
    await later.terminate();
    await early.terminate();
    await starts.close();
  });

  it('answers over what the store loaded after the thread started', async () => {
    const starts = new ThreadStarts(1);
    // The store loads while the thread boots.
    const store = new MemoryStore();
    for (let s = 0; s < 20; s++) {
      store.append(up('a'), NOW - (19 - s) * 15_000, s);
      store.append(up('b'), NOW - (19 - s) * 15_000, 2 * s);
    }
    const pool = new QueryThreadPool(store, {
      threads: 1,
      maxConcurrency: 1,
      keepWarm: 1,
      engine: { timeoutMs: 60_000 },
      logger: recordingLogger(),
      starts,
    });
    try {
      await pool.warmUp(NOW);
      const rules = new RuleQueryThreads(pool, 60_000);
      const [sum] = await rules.queryAll(['sum(up)'], NOW);
      expect(sum).toEqual([{ metric: Labels.EMPTY, f: 19 + 38 }]);
      expect(pool.load.threads).toBe(1);
    } finally {
      await pool.close();
      await starts.close();
    }
  });

  it('ends the threads no pool took, not the ones taken', async () => {
    const starts = new ThreadStarts(2);
    expect(starts.waiting).toBe(2);
    const taken = starts.take();
    const exit = jest.fn();
    taken.once('exit', exit);
    await starts.close();
    expect(starts.waiting).toBe(0);
    expect(exit).not.toHaveBeenCalled();
    await taken.terminate();
  });
});
