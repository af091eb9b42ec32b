import { recordingLogger } from '../logging/testing/recording-logger';
import { Labels } from '../tsdb/labels';
import { MemoryStore } from '../tsdb/memory-store';
import { QueryThreadPool } from './query-thread-pool';
import { RuleQueryThreads } from './rule-query-threads';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ThreadStarts, startQueryThreadEarly } from './thread-starts';

const NOW = 1_700_000_000_000;
const up = (instance: string) => Labels.fromRecord({ __name__: 'up', job: 'redis', instance });

/** A pool of one thread, kept warm, as the API's is at most on one core. */
const keptThreadPool = (store: MemoryStore, starts?: ThreadStarts) =>
  new QueryThreadPool(store, {
    threads: 1,
    maxConcurrency: 1,
    keepWarm: 1,
    engine: { timeoutMs: 60_000 },
    logger: recordingLogger(),
    starts,
  });

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
    const pool = keptThreadPool(store, starts);
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

  it('takes the thread the bin started before the bundle loaded first', async () => {
    const early = startQueryThreadEarly();
    const starts = new ThreadStarts(1);
    try {
      expect(starts.waiting).toBe(1);
      expect(starts.take()).toBe(early);
    } finally {
      await early.terminate();
      await starts.close();
    }
  });

  it('drops a thread started early that failed, and starts another', async () => {
    const broken = startQueryThreadEarly(join(__dirname, 'no-such-entry.js'));
    await new Promise((resolve) => broken.once('exit', resolve));
    const starts = new ThreadStarts(1);
    const taken = starts.take();
    try {
      expect(taken).not.toBe(broken);
      expect(taken.threadId).toBeGreaterThan(broken.threadId);
    } finally {
      await taken.terminate();
      await starts.close();
    }
  });

  it('does not keep a process alive that ends before taking its early thread', () => {
    const compiled = join(__dirname, 'thread-starts.js').replace('/src/', '/dist/');
    const child = spawnSync(
      process.execPath,
      ['-e', `require(${JSON.stringify(compiled)}).startQueryThreadEarly()`],
      { timeout: 30_000, encoding: 'utf8' },
    );
    expect(child.error).toBeUndefined();
    expect(child.stderr).toBe('');
    expect(child.status).toBe(0);
  });

  it('starts the kept thread before the store has series, and follows them as they come', async () => {
    const store = new MemoryStore();
    const pool = keptThreadPool(store);
    try {
      pool.startThreads();
      expect(pool.load).toEqual({ threads: 1, running: 0, queued: 0 });
      for (let s = 0; s < 20; s++) store.append(up('a'), NOW - (19 - s) * 15_000, s);
      await pool.warmUp(NOW);
      // The same thread: warming up started none.
      expect(pool.load.threads).toBe(1);
      const rules = new RuleQueryThreads(pool, 60_000);
      const [sum] = await rules.queryAll(['sum(up)'], NOW);
      expect(sum).toEqual([{ metric: Labels.EMPTY, f: 19 }]);
    } finally {
      await pool.close();
    }
  });
});
