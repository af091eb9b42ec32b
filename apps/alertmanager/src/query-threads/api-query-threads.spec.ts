import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PrometheusReply } from '../api/prometheus/prometheus-reply';
import { InlineQueryRunner, QUEUE_TIMEOUT, type QueryCall } from '../api/prometheus/query-request';
import { recordingLogger } from '../logging/testing/recording-logger';
import { MetricStorage } from '../tsdb';
import { Labels } from '../tsdb/labels';
import { MemoryStore } from '../tsdb/memory-store';
import { ApiQueryThreads } from './api-query-threads';
import { QueryThreadPool, type QueryThreadPoolOptions } from './query-thread-pool';

const NOW = 1_700_000_000_000;
const STEP = 15_000;
const clock = { now: () => NOW };
const engine = { timeoutMs: 60_000 };

/** `series` counters and gauges over `steps` scrapes ending at NOW. */
function fill(store: MemoryStore, series: number, steps: number): void {
  const counters: Labels[] = [];
  const gauges: Labels[] = [];
  for (let i = 0; i < series; i++) {
    const instance = `host-${i % 50}:9121`;
    const command = `cmd${i % 7}`;
    counters.push(Labels.fromRecord({ __name__: 'requests_total', instance, command, i: `${i}` }));
    gauges.push(Labels.fromRecord({ __name__: 'temperature', instance, i: `${i}` }));
  }
  for (let s = 0; s < steps; s++) {
    const t = NOW - (steps - 1 - s) * STEP;
    for (let i = 0; i < series; i++) {
      store.append(counters[i], t, s * (i + 1));
      store.append(gauges[i], t, Math.sin(s + i) * 40);
    }
  }
}

/** A reply with its body as text, however it came. */
const text = (reply: PrometheusReply) => ({
  status: reply.status,
  body: typeof reply.body === 'string' ? reply.body : Buffer.from(reply.body).toString('utf8'),
});

/** The API's calls on a pool over `store` (the test clock, a recording logger), and the pool. */
function poolOf(
  store: MemoryStore,
  options: Pick<
    QueryThreadPoolOptions,
    'threads' | 'maxConcurrency' | 'engine' | 'idleMs' | 'keepWarm'
  >,
) {
  const threads = new QueryThreadPool(store, { ...options, logger: recordingLogger() });
  const api = new ApiQueryThreads(threads, clock, options.engine.timeoutMs);
  return {
    run: (request: QueryCall) => api.run(request),
    get load() {
      return threads.load;
    },
    warmUp: () => threads.warmUp(NOW),
    close: () => threads.close(),
  };
}

const call = (
  endpoint: QueryCall['endpoint'],
  params: Record<string, string>,
  labelName?: string,
): QueryCall => ({
  endpoint,
  labelName,
  params: new URLSearchParams(params).toString(),
});

const range = (query: string, hours = 1) =>
  call('query_range', {
    query,
    start: `${(NOW - hours * 3_600_000) / 1000}`,
    end: `${NOW / 1000}`,
    step: '15',
  });

describe('ApiQueryThreads: queries on threads over the store in shared memory', () => {
  let store: MemoryStore;
  let pool: ReturnType<typeof poolOf>;
  let inline: InlineQueryRunner;

  beforeAll(() => {
    store = new MemoryStore();
    fill(store, 200, 600);
    pool = poolOf(store, {
      threads: 2,
      maxConcurrency: 20,
      engine,
    });
    inline = new InlineQueryRunner(store, clock, engine);
  });

  afterAll(() => pool.close());

  it.each([
    ['an instant query', call('query', { query: 'sum by (instance) (rate(requests_total[5m]))' })],
    [
      'a range query over sealed and open chunks',
      range('max by (instance) (max_over_time(temperature[10m]))', 3),
    ],
    ['a regex selector over every series', range('count by (__name__) ({__name__=~".+"})')],
    ['series', call('series', { 'match[]': 'temperature{instance="host-3:9121"}' })],
    ['label names', call('labels', {})],
    ['label values', call('label_values', {}, 'command')],
    ['a parse error', call('query', { query: 'sum(' })],
    ['a query pretty-printed', call('format_query', { query: 'sum by (job) (rate(x[5m])) > 0' })],
    ['an evaluation error', range('{__name__=~".+"}')],
  ])('answers %s exactly as the in-process engine does', async (_name, request) => {
    const [threaded, reference] = await Promise.all([pool.run(request), inline.run(request)]);
    expect(text(threaded)).toEqual(text(reference));
  });

  it('evaluates and prints chains of operators deeper than the main thread could', async () => {
    const chain = Array.from({ length: 20_000 }, (_, i) => `temperature${i}`).join(' + ');
    const evaluated = await pool.run(call('query', { query: chain }));
    expect(text(evaluated)).toEqual({
      status: 200,
      body: '{"status":"success","data":{"resultType":"vector","result":[]}}',
    });
    const short = chain.split(' + ').slice(0, 2_000).join(' + ');
    const printed = await pool.run(call('format_query', { query: short }));
    expect(printed.status).toBe(200);
    // Printed, the whole chain is indented once more at each of its 20,000 levels.
    expect(text(await pool.run(call('format_query', { query: chain })))).toEqual({
      status: 400,
      body: '{"status":"error","errorType":"bad_data","error":"the answer to the query is too large to be written"}',
    });
  });

  it('sees series and samples appended after the threads started', async () => {
    const labels = Labels.fromRecord({ __name__: 'late_metric', job: 'x' });
    store.append(labels, NOW - STEP, 1);
    store.append(labels, NOW, 2);
    const reply = await pool.run(call('query', { query: 'late_metric' }));
    expect(JSON.parse(text(reply).body).data.result).toEqual([
      { metric: { __name__: 'late_metric', job: 'x' }, value: [NOW / 1000, '2'] },
    ]);
  });

  it('keeps the event loop free while a query is evaluated', async () => {
    let turns = 0;
    let done = false;
    const spin = () => {
      turns++;
      if (!done) setImmediate(spin);
    };
    setImmediate(spin);
    const reply = await pool.run(range('sum by (instance) (rate(requests_total[5m]))', 3));
    done = true;
    expect(reply.status).toBe(200);
    expect(turns).toBeGreaterThan(1);
  });
});

describe('QueryThreadPool limits', () => {
  it('answers upstream timeouts: in evaluation, and for a query still waiting for a thread', async () => {
    const store = new MemoryStore();
    fill(store, 300, 5_760);
    const pool = poolOf(store, {
      threads: 1,
      maxConcurrency: 1,
      engine: { timeoutMs: 1_000 },
    });
    try {
      // The thread has started and answers within the timeout.
      expect((await pool.run(call('query', { query: '1' }))).status).toBe(200);
      // Sorting every hour-long window at 5,760 steps takes each series tens of milliseconds,
      // all 300 series many seconds, however fast the machine: far past the timeout.
      const heavy = range('quantile_over_time(0.5, requests_total[1h])', 24);
      const [first, second] = await Promise.all([pool.run(heavy), pool.run(heavy)]);
      expect(first.status).toBe(503);
      expect(JSON.parse(text(first).body)).toEqual({
        status: 'error',
        errorType: 'timeout',
        error: 'query timed out in expression evaluation',
      });
      expect(JSON.parse(text(second).body)).toEqual({
        status: 'error',
        errorType: 'timeout',
        error: QUEUE_TIMEOUT,
      });
      // The thread gave the query up itself and took the next one.
      expect(pool.load).toMatchObject({ running: 0, queued: 0 });
    } finally {
      await pool.close();
    }
  });

  it.each([
    ['starts threads with the queries that need them and ends them when idle', 0],
    ['keeps its warm thread started, kept current, through idle time', 1],
  ])('%s', async (_name, keepWarm) => {
    const store = new MemoryStore();
    fill(store, 10, 10);
    const pool = poolOf(store, {
      threads: 2,
      maxConcurrency: 20,
      idleMs: 200,
      keepWarm,
      engine: { timeoutMs: 60_000 },
    });
    try {
      await pool.warmUp();
      expect(pool.load).toEqual({ threads: keepWarm, running: 0, queued: 0 });
      const both = Promise.all([
        pool.run(call('query', { query: 'temperature' })),
        pool.run(call('query', { query: 'requests_total' })),
      ]);
      expect(pool.load.threads).toBe(2);
      const [a, b] = await both;
      expect([a.status, b.status]).toEqual([200, 200]);
      await new Promise((resolve) => setTimeout(resolve, 700));
      expect(pool.load.threads).toBe(keepWarm);
      // A thread started again, or kept, sees the index as it is now.
      store.append(Labels.fromRecord({ __name__: 'after_idle' }), NOW, 7);
      const again = await pool.run(call('query', { query: 'after_idle' }));
      expect(JSON.parse(text(again).body).data.result).toEqual([
        { metric: { __name__: 'after_idle' }, value: [NOW / 1000, '7'] },
      ]);
    } finally {
      await pool.close();
    }
  });

  it('refuses a query over --query.max-samples with upstream error', async () => {
    const store = new MemoryStore();
    fill(store, 50, 240);
    const pool = poolOf(store, {
      threads: 1,
      maxConcurrency: 1,
      engine: { timeoutMs: 60_000, maxSamples: 100 },
    });
    try {
      const reply = await pool.run(range('temperature'));
      expect(reply.status).toBe(422);
      expect(JSON.parse(text(reply).body).error).toBe(
        'query processing would load too many samples into memory in query execution',
      );
    } finally {
      await pool.close();
    }
  });

  it('reads closed chunks on disk from its threads as the in-process engine does', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pool-disk-'));
    const storage = await MetricStorage.open({
      dir,
      retentionMs: 7 * 24 * 3_600_000,
      syncIntervalMs: 5,
      logger: recordingLogger(),
    });
    const pool = poolOf(storage.store, { threads: 1, maxConcurrency: 1, engine });
    try {
      fill(storage.store, 20, 1200); // five hours: four closed chunks a series
      const query = range('sum(rate(requests_total[5m])) + sum(temperature)', 5);
      const inMemory = text(await pool.run(query));
      await storage.checkpoint(NOW);
      expect(storage.diskBytes).toBeGreaterThan(0);
      const onDisk = text(await pool.run(query));
      expect(onDisk).toEqual(inMemory);
      expect(onDisk).toEqual(text(await new InlineQueryRunner(storage, clock, engine).run(query)));
    } finally {
      await pool.close();
      await storage.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('QueryThreadPool reading while the main thread appends', () => {
  it('reads every window whole from the rings of recent samples as they are written', async () => {
    const store = new MemoryStore();
    const series = Array.from({ length: 300 }, (_, i) =>
      Labels.fromRecord({ __name__: 'ticking', i: `${i}` }),
    );
    let step = 0;
    /** One scrape of every series: each value is its own time in seconds. */
    const scrape = () => {
      const t = NOW + step++ * STEP;
      for (const labels of series) store.append(labels, t, t / 1000);
    };
    for (let i = 0; i < 40; i++) scrape();
    const pool = poolOf(store, { threads: 1, maxConcurrency: 1, engine });
    try {
      for (let round = 0; round < 25; round++) {
        const at = NOW + (step - 1) * STEP;
        let done = false;
        const reply = pool.run(call('query', { query: 'ticking[5m]', time: `${at / 1000}` }));
        void reply.finally(() => (done = true));
        // Newer samples go into the same rings while the thread reads them.
        while (!done) {
          scrape();
          await new Promise((resolve) => setImmediate(resolve));
        }
        const body = JSON.parse(text(await reply).body) as {
          data: { result: { values: [number, string][] }[] };
        };
        const expected = Array.from({ length: 20 }, (_, k) => {
          const t = (at - (19 - k) * STEP) / 1000;
          return [t, `${t}`];
        });
        expect(body.data.result).toHaveLength(series.length);
        for (const { values } of body.data.result) expect(values).toEqual(expected);
      }
    } finally {
      await pool.close();
    }
  });
});
