import { MessageChannel, type MessagePort, type Worker } from 'node:worker_threads';
import type { EngineOptions } from '../promql';
import type { Logger } from '../logging/logger';
import { IndexFeed } from '../tsdb/index-feed';
import type { MemoryStore } from '../tsdb/memory-store';
import type {
  FromQueryThread,
  QueryThreadData,
  SegmentMessage,
  ThreadJob,
  ToQueryThread,
} from './thread-messages';
import { startQueryWorker, type ThreadStarts } from './thread-starts';

/** How many query threads, how many jobs at once, and the engine's limits. */
export interface QueryThreadPoolOptions {
  /** Query threads. */
  readonly threads: number;
  /** Jobs evaluated at once (`--query.max-concurrency` for the API's); more wait in order. */
  readonly maxConcurrency: number;
  /** How long a thread may stay idle before it ends (started again by the next job). */
  readonly idleMs?: number;
  /**
   * Threads kept started: {@link QueryThreadPool.warmUp} starts them and has them run the common
   * query paths once, and they never end for being idle, so a first query costs what later ones do.
   */
  readonly keepWarm?: number;
  /** `--query.timeout`, `--query.max-samples`, `--query.lookback-delta`. */
  readonly engine: EngineOptions & { readonly timeoutMs: number };
  readonly logger: Logger;
  /** Threads started early, taken before new ones are started. */
  readonly starts?: ThreadStarts;
}

/** How a job ended: the thread's answer, or why there is none. */
export type ThreadOutcome =
  | { readonly kind: 'answer'; readonly reply: unknown }
  | {
      readonly kind: 'failed';
      /**
       * `queued`: still waiting for a thread at its deadline; `stuck`: its thread did not give it
       * up by the deadline and was ended; `closed`: the pool is closing; `exited`: its thread died.
       */
      readonly reason: 'queued' | 'stuck' | 'closed' | 'exited';
    };

/** How long a query thread stays without a job before it ends. */
const DEFAULT_IDLE_MS = 5 * 60_000;

/** How long past its deadline a thread may take to give up a query before it is replaced. */
const GRACE_MS = 5_000;

interface Waiting {
  readonly job: ThreadJob;
  readonly deadlineMs: number;
  readonly resolve: (outcome: ThreadOutcome) => void;
  /** Answers the timeout if the request is still queued at its deadline. */
  timer?: NodeJS.Timeout;
}

interface Thread {
  worker: Worker;
  segments: MessagePort;
  /** When it last answered (or started), for ending idle threads. */
  idleSince: number;
  /** Ended on purpose (idle, or stuck): its exit is expected. */
  ending?: boolean;
  /** The job it is running, with its read epoch and its watchdog. */
  running?: { id: number; waiting: Waiting; epoch: number; watchdog: NodeJS.Timeout };
}

/**
 * PromQL off the event loop: query threads that read the metric store's shared memory while the
 * main thread appends to it. Each thread runs one job at a time; jobs beyond the threads (or
 * beyond `maxConcurrency`) wait in order, and one still waiting at its deadline fails as
 * `queued`. A thread that does not give a job up by its deadline (plus a grace) is ended.
 * Threads start with the first job that needs them (or with {@link warmUp}) and, beyond
 * `keepWarm`, end after `idleMs` without one (each holds its own copy of the index and its own
 * heap). The server has two pools: the API's, and the rules' own, so a rule group never waits
 * behind a dashboard's queries.
 */
export class QueryThreadPool {
  private readonly threads: Thread[] = [];
  private readonly queue: Waiting[] = [];
  /**
   * The index's changes since they were last sent, recorded from the first thread's start on (a
   * pool without threads records none: a thread starts with the whole index).
   */
  private feed: IndexFeed | undefined;
  private readonly flusher: NodeJS.Timeout;
  private readonly reaper: NodeJS.Timeout;
  private nextId = 0;
  private closed = false;
  private readonly onSegment = (id: number, buffer: SharedArrayBuffer) => {
    const message: SegmentMessage = { id, buffer };
    for (const thread of this.threads) thread.segments.postMessage(message);
  };

  constructor(
    private readonly store: MemoryStore,
    private readonly options: QueryThreadPoolOptions,
  ) {
    store.memory.onSegment(this.onSegment);
    // Index changes also go out without jobs, so they do not pile up.
    this.flusher = setInterval(() => this.sendIndexChanges(), 1_000).unref();
    const idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
    this.reaper = setInterval(() => this.endIdle(idleMs), Math.min(idleMs, 30_000)).unref();
  }

  /** Runs `job` on a thread; it gives up at `deadlineMs` (ms since the epoch), queue time included. */
  run(job: ThreadJob, deadlineMs: number): Promise<ThreadOutcome> {
    if (this.closed) return Promise.resolve(CLOSED);
    return new Promise((resolve) => {
      const waiting: Waiting = { job, deadlineMs, resolve };
      waiting.timer = setTimeout(
        () => {
          const at = this.queue.indexOf(waiting);
          if (at < 0) return;
          this.queue.splice(at, 1);
          resolve({ kind: 'failed', reason: 'queued' });
        },
        Math.max(0, deadlineMs - Date.now()),
      );
      this.queue.push(waiting);
      this.pump();
    });
  }

  /**
   * Starts the `keepWarm` threads without a job: started before the store loads, each copies the
   * index as it grows (sent every second), on another core, instead of all of it once loaded.
   */
  startThreads(): void {
    const count = Math.min(this.options.keepWarm ?? 0, this.options.threads);
    while (this.threads.length < count && !this.closed) this.threads.push(this.spawn());
  }

  /**
   * Starts the `keepWarm` threads (those not started yet) and has each run the common query
   * paths once over the store as it is (`nowMs`: the server's now); resolves when they have.
   */
  async warmUp(nowMs: number): Promise<void> {
    const deadlineMs = Date.now() + this.options.engine.timeoutMs;
    this.startThreads();
    await Promise.all(
      this.threads.map((thread) =>
        thread.running
          ? undefined
          : this.start(thread, {
              job: { kind: 'warm-up', nowMs },
              deadlineMs,
              resolve: () => undefined,
            }),
      ),
    );
  }

  /** Threads, queries evaluating now and waiting. */
  get load(): { threads: number; running: number; queued: number } {
    return {
      threads: this.threads.length,
      running: this.threads.filter((t) => t.running).length,
      queued: this.queue.length,
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.flusher);
    clearInterval(this.reaper);
    this.feed?.close();
    this.store.memory.offSegment(this.onSegment);
    for (const waiting of this.queue.splice(0)) {
      clearTimeout(waiting.timer);
      waiting.resolve(CLOSED);
    }
    await Promise.all(
      this.threads.map(async (thread) => {
        this.settle(thread, CLOSED);
        thread.segments.close();
        await thread.worker.terminate();
      }),
    );
  }

  private pump(): void {
    let running = this.load.running;
    while (this.queue.length > 0 && running < this.options.maxConcurrency) {
      const idle = this.threads.find((t) => t.running === undefined && !t.ending);
      if (idle === undefined && this.threads.length >= Math.max(1, this.options.threads)) return;
      // A thread warming up is free sooner than a new one would be: its start and compiling are
      // what the warm-up pays for.
      if (idle === undefined && this.threads.some((t) => t.running?.waiting.job.kind === 'warm-up'))
        return;
      const thread = idle ?? this.spawn();
      if (idle === undefined) this.threads.push(thread);
      const waiting = this.queue.shift() as Waiting;
      clearTimeout(waiting.timer);
      void this.start(thread, waiting);
      running++;
    }
  }

  /** Hands `waiting` to `thread`; resolves when the thread has answered or given it up. */
  private start(thread: Thread, waiting: Waiting): Promise<void> {
    this.sendIndexChanges();
    const id = this.nextId++;
    const watchdog = setTimeout(
      () => this.replace(thread),
      Math.max(0, waiting.deadlineMs - Date.now()) + GRACE_MS,
    );
    return new Promise((done) => {
      const resolve = (outcome: ThreadOutcome) => {
        waiting.resolve(outcome);
        done();
      };
      const epoch = this.store.memory.epochs.begin();
      thread.running = { id, waiting: { ...waiting, resolve }, epoch, watchdog };
      const message: ToQueryThread = { kind: 'job', id, job: waiting.job };
      thread.worker.postMessage(message);
    });
  }

  /** Sends the index's changes to every thread (with none, they are dropped: a new thread gets the whole index). */
  private sendIndexChanges(): void {
    const changes = this.feed?.take();
    if (changes === undefined || this.threads.length === 0) return;
    const message: ToQueryThread = { kind: 'index', changes };
    for (const thread of this.threads) thread.worker.postMessage(message);
  }

  private spawn(): Thread {
    // Threads started later get the whole index; the others get what they have not seen first.
    this.sendIndexChanges();
    const channel = new MessageChannel();
    const data: QueryThreadData = {
      memory: this.store.memory.handles(),
      segments: channel.port2,
      index: (this.feed ??= new IndexFeed(this.store)).everything(),
      engine: this.options.engine,
    };
    const worker = this.options.starts?.take() ?? startQueryWorker();
    const start: ToQueryThread = { kind: 'start', data };
    worker.postMessage(start, [channel.port2]);
    const thread: Thread = { worker, segments: channel.port1, idleSince: Date.now() };
    worker.on('message', (message: FromQueryThread) => {
      if (message.ringless !== undefined) this.store.openRings(message.ringless);
      if (thread.running?.id !== message.id) return;
      this.settle(thread, { kind: 'answer', reply: message.reply });
      thread.idleSince = Date.now();
      this.pump();
    });
    worker.on('error', (error) => {
      this.options.logger.error('query thread failed', { err: error.message });
    });
    worker.on('exit', () => {
      if (this.closed) return;
      this.settle(thread, { kind: 'failed', reason: 'exited' });
      this.remove(thread);
      this.pump();
    });
    return thread;
  }

  /** Ends the thread's running job with `outcome`. */
  private settle(thread: Thread, outcome: ThreadOutcome): void {
    const running = thread.running;
    if (running === undefined) return;
    thread.running = undefined;
    clearTimeout(running.watchdog);
    this.store.memory.epochs.end(running.epoch);
    running.waiting.resolve(outcome);
  }

  /** A thread stuck past its query's deadline: the query times out, the thread ends. */
  private replace(thread: Thread): void {
    this.options.logger.warn('query thread did not stop at its deadline; ending it');
    this.settle(thread, { kind: 'failed', reason: 'stuck' });
    this.end(thread);
    this.pump();
  }

  private endIdle(idleMs: number): void {
    const now = Date.now();
    const keep = this.options.keepWarm ?? 0;
    for (const thread of [...this.threads]) {
      if (this.threads.length <= keep) return;
      if (thread.running === undefined && now - thread.idleSince >= idleMs) this.end(thread);
    }
  }

  /** Ends a thread; queries go to the others, or to a new one. */
  private end(thread: Thread): void {
    thread.ending = true;
    this.remove(thread);
    void thread.worker.terminate();
  }

  private remove(thread: Thread): void {
    const at = this.threads.indexOf(thread);
    if (at >= 0) this.threads.splice(at, 1);
    thread.segments.close();
  }
}

const CLOSED: ThreadOutcome = { kind: 'failed', reason: 'closed' };
