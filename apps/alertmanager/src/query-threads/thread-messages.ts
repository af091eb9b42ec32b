import type { MessagePort } from 'node:worker_threads';
import type { QueryRequest } from '../api/prometheus/query-request';
import type { EngineOptions } from '../promql';
import type { RuleQueryJob } from '../rules/rule-query-wire';
import type { IndexChanges } from '../tsdb/index-changes';
import type { StoreMemoryHandles } from '../tsdb/memory/store-memory';

/**
 * What crosses between the main thread and a query thread, declared once for both sides. Samples
 * never cross: they are in the store's shared memory. The index crosses as changes, a job as
 * plain data, an answer as bytes (the API's JSON body) or plain data (a rule's samples).
 */

/** Given to a query thread when it starts (its first message). */
export interface QueryThreadData {
  /** The store's shared memory as it is at the start. */
  readonly memory: StoreMemoryHandles;
  /** Segments created later, one {@link SegmentMessage} each, read as they are needed. */
  readonly segments: MessagePort;
  /** The index as it is at the start. */
  readonly index: IndexChanges;
  /** `--query.*` options: lookback, samples, timeout. */
  readonly engine: EngineOptions;
}

/** A segment of the store's shared memory, created after the thread started. */
export interface SegmentMessage {
  readonly id: number;
  readonly buffer: SharedArrayBuffer;
}

/** What a query thread is asked to do. */
export type ThreadJob =
  /** A request of the Prometheus query API; answered with its status and JSON body. */
  | { readonly kind: 'api'; readonly request: QueryRequest }
  /** Rule expressions, or the `for` state's last samples; answered with a `RuleQueryReply`. */
  | { readonly kind: 'rules'; readonly job: RuleQueryJob }
  /** Runs the common query paths once so that later queries find them compiled. */
  | { readonly kind: 'warm-up'; readonly nowMs: number };

/** Main thread to query thread; `start` comes first, once. */
export type ToQueryThread =
  | { readonly kind: 'start'; readonly data: QueryThreadData }
  | { readonly kind: 'index'; readonly changes: IndexChanges }
  | { readonly kind: 'job'; readonly id: number; readonly job: ThreadJob };

/** Query thread to main thread. */
export interface FromQueryThread {
  readonly kind: 'reply';
  readonly id: number;
  readonly reply: unknown;
  /**
   * Series whose newest samples a rule job read from their chunks, having no ring of recent
   * samples: the store opens one for each (moved, not copied).
   */
  readonly ringless?: Int32Array;
}
