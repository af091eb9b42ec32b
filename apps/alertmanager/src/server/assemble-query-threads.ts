import { availableParallelism } from 'node:os';
import type { Logger } from '../logging/logger';
import {
  ApiQueryThreads,
  QueryThreadPool,
  RuleQueryThreads,
  type ThreadStarts,
} from '../query-threads';
import type { Clock } from '../time/clock';
import type { MemoryStore } from '../tsdb/memory-store';
import { queryEngineSettings } from './query-engine-options';
import type { ServerOptions } from './server-options';

/** The server's query threads: the API's and the rules' own. */
export interface AssembledQueryThreads {
  /** The query API's calls, on up to `--query.max-concurrency` threads (at most one a core). */
  readonly api: ApiQueryThreads;
  /** Rule expressions, templates' `query` and the `for`-state reads, on a thread of their own. */
  readonly rules: RuleQueryThreads;
  /** Query threads started now. */
  threads(): number;
  /** Starts the API's thread kept warm, without a job (it copies the index as the store loads). */
  startThreads(): void;
  /** Starts the API's thread kept warm and has it compile the common query paths. */
  warmUp(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Two pools over the metric store's shared memory: the API's, one thread of which is kept warm
 * (a first query after a start answers as fast as later ones), and the rules', one thread started
 * and warmed when rules are first loaded that never ends, so a rule group never queues behind
 * dashboard queries and never waits for a thread to start. A server without rules keeps no
 * thread for them.
 */
export function assembleQueryThreads(
  options: ServerOptions,
  store: MemoryStore,
  clock: Clock,
  logger: Logger,
  /** Threads started early, taken before new ones are started. */
  starts?: ThreadStarts,
): AssembledQueryThreads {
  const { engine, maxConcurrency } = queryEngineSettings(options);
  const apiPool = new QueryThreadPool(store, {
    threads: Math.min(maxConcurrency, availableParallelism()),
    maxConcurrency,
    keepWarm: 1,
    engine,
    logger: logger.with({ component: 'query engine' }),
    starts,
  });
  const rulePool = new QueryThreadPool(store, {
    threads: 1,
    maxConcurrency: 1,
    keepWarm: 1,
    idleMs: Infinity,
    engine,
    logger: logger.with({ component: 'rule manager' }),
    starts,
  });
  return {
    api: new ApiQueryThreads(apiPool, clock, engine.timeoutMs),
    rules: new RuleQueryThreads(rulePool, engine.timeoutMs),
    threads: () => apiPool.load.threads + rulePool.load.threads,
    startThreads: () => apiPool.startThreads(),
    warmUp: () => apiPool.warmUp(clock.now()),
    close: async () => {
      await Promise.all([apiPool.close(), rulePool.close()]);
    },
  };
}
