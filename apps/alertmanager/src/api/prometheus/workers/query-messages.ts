import type { MessagePort } from 'node:worker_threads';
import type { EngineOptions } from '../../../promql';
import type { IndexChanges } from '../../../tsdb/index-changes';
import type { StoreMemoryHandles } from '../../../tsdb/memory/store-memory';
import type { PrometheusReply } from '../prometheus-reply';
import type { QueryRequest } from '../query-request';

/**
 * What crosses between the main thread and a query thread, declared once for both sides. Samples
 * never cross: they are in the store's shared memory. The index crosses as changes, a request as
 * form-encoded text, an answer as its JSON body.
 */

/** Given to a query thread when it starts. */
export interface QueryWorkerData {
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

/** Main thread to query thread. */
export type ToQueryWorker =
  | { readonly kind: 'index'; readonly changes: IndexChanges }
  | { readonly kind: 'query'; readonly id: number; readonly request: QueryRequest };

/** Query thread to main thread. */
export interface FromQueryWorker {
  readonly kind: 'reply';
  readonly id: number;
  readonly reply: PrometheusReply;
}
