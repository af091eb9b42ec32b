import { constants, PerformanceObserver } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import { measureMemory } from 'node:vm';
import type { Clock } from '../time/clock';
import type { Scheduler, TimerHandle } from '../time/scheduler';

/** How often the heap is looked at. */
const CHECK_EVERY_MS = 2000;
/** Growth over the heap left by the last full collection that prompts the next one. */
const GROWTH = 0.25;
/** ... plus this much, so a small heap is not collected for every few objects. */
const SLACK_BYTES = 8 << 20;
/** A prompt whose collection was never seen to end is given up after this long. */
const PROMPT_TIMEOUT_MS = 30_000;

/** What the pacer reads and does: the process's heap, by default. */
export interface HeapPacerDeps {
  readonly clock: Clock;
  readonly scheduler: Scheduler;
  /** Bytes of the JavaScript heap in use. */
  usedHeapBytes(): number;
  /** Starts a full collection, incrementally (marking runs beside the program, as V8's own do). */
  promptCollection(): void;
  /** Calls `listener` after each full collection; returns what stops it. */
  onFullCollection(listener: () => void): () => void;
}

/**
 * Paces the main thread's full garbage collections by the heap's growth, as Go's collector paces
 * Prometheus's (`GOGC`): a full collection is started once the heap has grown by a quarter (and
 * 8 MiB) over what the last one left. V8 left alone waits for its first full collection until the
 * old generation reaches a limit set for large applications: scraping 100,000 series, the heap
 * reached about 227 MiB, most of it garbage, before the first one, and resident memory did not
 * come down after (see BENCHMARKS.md, "A full collection paced by the heap's growth").
 */
export class HeapPacer {
  private timer: TimerHandle | undefined;
  private stopListening: (() => void) | undefined;
  /** Heap in use after the last full collection (or when the pacer started). */
  private base = 0;
  /** When a prompted collection started and has not been seen to end; 0 for none. */
  private promptedAt = 0;
  /** Full collections prompted, for the tests and the debug log. */
  prompted = 0;

  constructor(private readonly deps: HeapPacerDeps) {}

  start(): void {
    this.base = this.deps.usedHeapBytes();
    this.stopListening = this.deps.onFullCollection(() => {
      this.base = this.deps.usedHeapBytes();
      this.promptedAt = 0;
    });
    this.schedule();
  }

  stop(): void {
    if (this.timer !== undefined) this.deps.scheduler.clear(this.timer);
    this.timer = undefined;
    this.stopListening?.();
    this.stopListening = undefined;
  }

  /** Prompts a full collection when the heap has grown enough and none is under way. */
  check(): void {
    const now = this.deps.clock.now();
    if (this.promptedAt !== 0 && now - this.promptedAt < PROMPT_TIMEOUT_MS) return;
    const used = this.deps.usedHeapBytes();
    if (used <= this.base * (1 + GROWTH) + SLACK_BYTES) return;
    this.promptedAt = now;
    this.prompted++;
    this.deps.promptCollection();
  }

  private schedule(): void {
    this.timer = this.deps.scheduler.set(this.deps.clock.now() + CHECK_EVERY_MS, () => {
      this.check();
      if (this.timer !== undefined) this.schedule();
    });
  }
}

/** The process's own heap, and V8's memory measurement to start a full collection. */
export function processHeap(): Omit<HeapPacerDeps, 'clock' | 'scheduler'> {
  return {
    usedHeapBytes: () => getHeapStatistics().used_heap_size,
    // An eager measurement starts incremental marking at once (a lazy one waits for the next
    // collection); the measurement itself is not needed. Node warns once that the measurement is
    // experimental: here it only starts a collection, so the warning would tell an operator
    // nothing, and it is held back for this call alone.
    promptCollection: () => {
      const warn = process.emitWarning;
      process.emitWarning = () => undefined;
      try {
        void measureMemory({ mode: 'summary', execution: 'eager' }).catch(() => undefined);
      } finally {
        process.emitWarning = warn;
      }
    },
    onFullCollection: (listener) => {
      const observer = new PerformanceObserver((list) => {
        const full = list.getEntries().some((entry) => {
          const detail = (entry as { detail?: { kind?: number } }).detail;
          return detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR;
        });
        if (full) listener();
      });
      observer.observe({ entryTypes: ['gc'] });
      return () => observer.disconnect();
    },
  };
}
