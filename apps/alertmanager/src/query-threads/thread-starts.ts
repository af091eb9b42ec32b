import { existsSync } from 'node:fs';
import { join, sep } from 'node:path';
import { Worker } from 'node:worker_threads';

/**
 * A query thread's young generation (three semi-spaces of 64 MiB): a query's garbage is
 * short-lived, and with V8's default semi-space (16 MiB) collecting it took about half of a heavy
 * range query's time (2.2 s against 0.9 s with 64 MiB, in-process, `tools/bench/query-isolation`'s
 * first query). The space is taken only while a query allocates.
 */
const YOUNG_GENERATION_MB = 192;
/**
 * A query thread's stack: the parser, printer and evaluator recurse over the syntax tree, and a
 * generated query may nest thousands of operators deep (Prometheus's goroutines grow their stacks).
 */
const STACK_MB = 64;

/**
 * A new query thread: it boots and loads its code, then waits for its `QueryThreadData` (the
 * first message it is sent) before it reads anything.
 */
export function startQueryWorker(entry = workerEntry()): Worker {
  return new Worker(entry, {
    resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB, stackSizeMb: STACK_MB },
  });
}

/**
 * Threads the bin started before it loaded the server's bundle, which holds its own copy of this
 * module: the list is the process's, not the module's, so that the bundle finds them.
 */
const early = ((globalThis as Record<symbol, unknown>)[
  Symbol.for('redisx.alertmanager.early-query-threads')
] ??= []) as Worker[];

/**
 * Starts a query thread on `entry` (the bundle's) before the server's modules load, so that it
 * boots Node and loads its code on another core while the main thread loads its own (about
 * 0.4 s each); the first `ThreadStarts` takes it. Until then it does not keep the process alive,
 * and one that fails is dropped (its taker starts another).
 */
export function startQueryThreadEarly(entry = workerEntry()): Worker {
  const worker = startQueryWorker(entry);
  worker.unref();
  const drop = () => {
    const at = early.indexOf(worker);
    if (at >= 0) early.splice(at, 1);
  };
  worker.once('exit', drop);
  worker.once('error', drop);
  early.push(worker);
  return worker;
}

/**
 * Query threads started before the metric store they will read has loaded: each boots Node and
 * loads its code on another core while the store replays its checkpoint and log, so the threads a
 * start keeps warm (and `/-/ready` waits for) are that much sooner ready. The first ones are those
 * the bin started (`startQueryThreadEarly`). Those not taken by `close` are ended.
 */
export class ThreadStarts {
  private readonly started: Worker[] = [];

  constructor(count: number) {
    for (let i = 0; i < count; i++) {
      const worker = early.shift() ?? startQueryWorker();
      worker.ref();
      // One that fails before it is taken is not handed out (its pool starts another).
      worker.once('exit', () => this.forget(worker));
      worker.once('error', () => this.forget(worker));
      this.started.push(worker);
    }
  }

  /** A thread started early, or a new one when none is left. */
  take(): Worker {
    return this.started.shift() ?? startQueryWorker();
  }

  /** Threads started and not taken yet. */
  get waiting(): number {
    return this.started.length;
  }

  /** Ends the threads no pool took. */
  async close(): Promise<void> {
    const left = this.started.splice(0);
    await Promise.all(left.map((worker) => worker.terminate()));
  }

  private forget(worker: Worker): void {
    const at = this.started.indexOf(worker);
    if (at >= 0) this.started.splice(at, 1);
  }
}

/**
 * The compiled entry of a query thread. Tests run the sources, which a thread cannot load: they
 * use the build's copy, which `npm test` makes first.
 */
function workerEntry(): string {
  const beside = join(__dirname, 'query-thread.entry.js');
  if (existsSync(beside)) return beside;
  return beside.replace(`${sep}src${sep}`, `${sep}dist${sep}`);
}
