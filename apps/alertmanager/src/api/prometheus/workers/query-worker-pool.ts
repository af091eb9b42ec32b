import { existsSync } from 'node:fs';
import { join, sep } from 'node:path';
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import type { EngineOptions } from '../../../promql';
import type { Logger } from '../../../logging/logger';
import { IndexFeed } from '../../../tsdb/index-feed';
import type { MemoryStore } from '../../../tsdb/memory-store';
import { failureReply, PrometheusApiError, type PrometheusReply } from '../prometheus-reply';
import type { Clock } from '../../../time/clock';
import {
  QUEUE_TIMEOUT,
  queryRequest,
  type QueryCall,
  type QueryRequest,
  type QueryRunner,
} from '../query-request';
import type {
  FromQueryWorker,
  QueryWorkerData,
  SegmentMessage,
  ToQueryWorker,
} from './query-messages';

/** How many query threads, how many queries at once, and the engine's limits. */
export interface QueryWorkerPoolOptions {
  /** Query threads. */
  readonly threads: number;
  /** Queries evaluated at once (`--query.max-concurrency`); more wait in order. */
  readonly maxConcurrency: number;
  /** How long a thread may stay idle before it ends (started again by the next query). */
  readonly idleMs?: number;
  /** `--query.timeout`, `--query.max-samples`, `--query.lookback-delta`. */
  readonly engine: EngineOptions & { readonly timeoutMs: number };
  /** The server's clock: "now" of a request that gives no time. */
  readonly clock: Clock;
  readonly logger: Logger;
}

/**
 * A query thread's young generation (three semi-spaces of 64 MiB): a query's garbage is
 * short-lived, and with V8's default semi-space (16 MiB) collecting it took about half of a heavy
 * range query's time (2.2 s against 0.9 s with 64 MiB, in-process, `tools/bench/query-isolation`'s
 * first query). The space is taken only while a query allocates.
 */
const YOUNG_GENERATION_MB = 192;

/** How long a query thread stays without a query before it ends. */
const DEFAULT_IDLE_MS = 5 * 60_000;

/** How long past its deadline a thread may take to give up a query before it is replaced. */
const GRACE_MS = 5_000;

interface Waiting {
  readonly request: QueryRequest;
  readonly resolve: (reply: PrometheusReply) => void;
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
  /** The query it is evaluating, with its read epoch and its watchdog. */
  running?: { id: number; waiting: Waiting; epoch: number; watchdog: NodeJS.Timeout };
}

/**
 * PromQL off the event loop: query threads that read the metric store's shared memory while the
 * main thread appends to it. Each thread answers one request at a time; requests beyond the
 * threads (or beyond `maxConcurrency`) wait in order, and one still waiting at its deadline is
 * answered upstream's queue timeout. A thread that does not give a query up by its deadline
 * (plus a grace) is ended. Threads start with the first query that needs them and end after
 * `idleMs` without one, so a server nobody queries keeps none (each holds its own copy of the
 * index and its own heap).
 */
export class QueryWorkerPool implements QueryRunner {
  private readonly threads: Thread[] = [];
  private readonly queue: Waiting[] = [];
  private readonly feed: IndexFeed;
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
    private readonly options: QueryWorkerPoolOptions,
  ) {
    this.feed = new IndexFeed(store);
    store.memory.onSegment(this.onSegment);
    // Index changes also go out without queries, so they do not pile up.
    this.flusher = setInterval(() => this.sendIndexChanges(), 1_000).unref();
    const idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
    this.reaper = setInterval(() => this.endIdle(idleMs), Math.min(idleMs, 30_000)).unref();
  }

  run(call: QueryCall): Promise<PrometheusReply> {
    const request = queryRequest(call, this.options.clock, this.options.engine.timeoutMs);
    if (this.closed)
      return Promise.resolve(failureReply(new PrometheusApiError('unavailable', 'shutting down')));
    return new Promise((resolve) => {
      const waiting: Waiting = { request, resolve };
      waiting.timer = setTimeout(
        () => {
          const at = this.queue.indexOf(waiting);
          if (at < 0) return;
          this.queue.splice(at, 1);
          resolve(failureReply(new PrometheusApiError('timeout', QUEUE_TIMEOUT)));
        },
        Math.max(0, request.deadlineMs - Date.now()),
      );
      this.queue.push(waiting);
      this.pump();
    });
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
    this.feed.close();
    this.store.memory.offSegment(this.onSegment);
    for (const waiting of this.queue.splice(0)) {
      clearTimeout(waiting.timer);
      waiting.resolve(failureReply(new PrometheusApiError('unavailable', 'shutting down')));
    }
    await Promise.all(
      this.threads.map(async (thread) => {
        this.settle(thread, failureReply(new PrometheusApiError('unavailable', 'shutting down')));
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
      const thread = idle ?? this.spawn();
      if (idle === undefined) this.threads.push(thread);
      const waiting = this.queue.shift() as Waiting;
      clearTimeout(waiting.timer);
      this.sendIndexChanges();
      const id = this.nextId++;
      const watchdog = setTimeout(
        () => this.replace(thread),
        Math.max(0, waiting.request.deadlineMs - Date.now()) + GRACE_MS,
      );
      thread.running = { id, waiting, epoch: this.store.memory.epochs.begin(), watchdog };
      const message: ToQueryWorker = { kind: 'query', id, request: waiting.request };
      thread.worker.postMessage(message);
      running++;
    }
  }

  /** Sends the index's changes to every thread (with none, they are dropped: a new thread gets the whole index). */
  private sendIndexChanges(): void {
    const changes = this.feed.take();
    if (changes === undefined || this.threads.length === 0) return;
    const message: ToQueryWorker = { kind: 'index', changes };
    for (const thread of this.threads) thread.worker.postMessage(message);
  }

  private spawn(): Thread {
    // Threads started later get the whole index; the others get what they have not seen first.
    this.sendIndexChanges();
    const channel = new MessageChannel();
    const data: QueryWorkerData = {
      memory: this.store.memory.handles(),
      segments: channel.port2,
      index: this.feed.everything(),
      engine: this.options.engine,
    };
    const worker = new Worker(workerEntry(), {
      workerData: data,
      transferList: [channel.port2],
      resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
    });
    const thread: Thread = { worker, segments: channel.port1, idleSince: Date.now() };
    worker.on('message', (message: FromQueryWorker) => {
      if (thread.running?.id !== message.id) return;
      this.settle(thread, message.reply);
      thread.idleSince = Date.now();
      this.pump();
    });
    worker.on('error', (error) => {
      this.options.logger.error('query thread failed', { err: error.message });
    });
    worker.on('exit', () => {
      if (this.closed) return;
      this.settle(thread, failureReply(new PrometheusApiError('internal', 'query thread exited')));
      this.remove(thread);
      this.pump();
    });
    return thread;
  }

  /** Ends the thread's running query with `reply`. */
  private settle(thread: Thread, reply: PrometheusReply): void {
    const running = thread.running;
    if (running === undefined) return;
    thread.running = undefined;
    clearTimeout(running.watchdog);
    this.store.memory.epochs.end(running.epoch);
    running.waiting.resolve(reply);
  }

  /** A thread stuck past its query's deadline: the query times out, the thread ends. */
  private replace(thread: Thread): void {
    this.options.logger.warn('query thread did not stop at its deadline; ending it');
    this.settle(
      thread,
      failureReply(new PrometheusApiError('timeout', 'query timed out in expression evaluation')),
    );
    this.end(thread);
    this.pump();
  }

  private endIdle(idleMs: number): void {
    const now = Date.now();
    for (const thread of [...this.threads]) {
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

/**
 * The compiled entry of a query thread. Tests run the sources, which a thread cannot load: they
 * use the build's copy, which `npm test` makes first.
 */
function workerEntry(): string {
  const beside = join(__dirname, 'query-worker.entry.js');
  if (existsSync(beside)) return beside;
  return beside.replace(`${sep}src${sep}`, `${sep}dist${sep}`);
}
