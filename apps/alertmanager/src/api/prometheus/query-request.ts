import type { EngineOptions } from '../../promql';
import type { Clock } from '../../time/clock';
import type { Queryable } from '../../tsdb/queryable';
import {
  failureReply,
  PrometheusApiError,
  successReply,
  type PrometheusReply,
} from './prometheus-reply';
import { formatQuery } from './format-query';
import { QueryApi, type QueryAnswer } from './query-api';

/**
 * The query API's endpoints that run on query threads: those that read the metric store, and
 * `format_query`, whose parse and print follow the query's length and depth.
 */
export type QueryEndpoint =
  'query' | 'query_range' | 'series' | 'labels' | 'label_values' | 'format_query';

/** A call of a query endpoint, as the controller hands it over. */
export interface QueryCall {
  readonly endpoint: QueryEndpoint;
  /** The label of `label/<name>/values`. */
  readonly labelName?: string;
  /** The request's parameters, form-encoded. */
  readonly params: string;
}

/** A call with its time and deadline, as plain data that can cross to a query thread. */
export interface QueryRequest extends QueryCall {
  /** "Now" for the request, from the server's clock (ms). */
  readonly nowMs: number;
  /** When the request gives up, queue time included (ms since the epoch). */
  readonly deadlineMs: number;
}

/** Runs query calls: on query threads, or in-process where there are none. */
export interface QueryRunner {
  run(call: QueryCall): Promise<PrometheusReply>;
}

/** Injection token for {@link QueryRunner}. */
export const QueryRunner = Symbol('QueryRunner');

/** The answer of upstream's engine for a query that waited past its timeout. */
export const QUEUE_TIMEOUT = 'query timed out in query queue';

/**
 * Answers one request against a store, as Prometheus's API would: the whole reply (status and
 * body), so only text crosses back from a query thread. The engine's timeout is what is left of
 * the request's deadline.
 */
export function answerQuery(
  store: Queryable,
  request: QueryRequest,
  engine: EngineOptions,
): PrometheusReply {
  const left = request.deadlineMs - Date.now();
  if (left <= 0) return failureReply(new PrometheusApiError('timeout', QUEUE_TIMEOUT));
  const api = new QueryApi(
    store,
    { now: () => request.nowMs },
    { ...engine, timeoutMs: Math.min(left, engine.timeoutMs ?? Infinity) },
  );
  const params = new URLSearchParams(request.params);
  try {
    const answer = handle(api, request, params);
    return successReply(answer.data, answer.warnings, answer.infos);
  } catch (error) {
    return failureReply(error instanceof RangeError ? tooLarge(error) : error);
  }
}

/**
 * What a query can exhaust on its thread: the stack (a parse, print or evaluation nested deeper
 * than it reaches) or the longest string (an answer, such as a pretty-printed chain of a hundred
 * thousand operators, indented at each level). The user's query, not the server, is at fault.
 */
function tooLarge(error: RangeError): unknown {
  if (/call stack/i.test(error.message)) {
    return new PrometheusApiError('bad_data', 'query is nested too deeply to be handled');
  }
  if (/string length/i.test(error.message)) {
    return new PrometheusApiError('bad_data', 'the answer to the query is too large to be written');
  }
  return error;
}

function handle(api: QueryApi, request: QueryRequest, params: URLSearchParams): QueryAnswer {
  switch (request.endpoint) {
    case 'query':
      return api.query(params);
    case 'query_range':
      return api.queryRange(params);
    case 'series':
      return api.series(params);
    case 'labels':
      return api.labelNames(params);
    case 'label_values':
      return api.labelValues(request.labelName ?? '', params);
    case 'format_query':
      return { data: formatQuery(params), warnings: [], infos: [] };
  }
}

/** A call stamped with the clock's now and the deadline `timeoutMs` from now. */
export function queryRequest(call: QueryCall, clock: Clock, timeoutMs: number): QueryRequest {
  return { ...call, nowMs: clock.now(), deadlineMs: Date.now() + timeoutMs };
}

/** Runs calls on the calling thread: for tests, and the reference the query threads agree with. */
export class InlineQueryRunner implements QueryRunner {
  constructor(
    private readonly store: Queryable,
    private readonly clock: Clock,
    private readonly engine: EngineOptions & { readonly timeoutMs: number },
  ) {}

  run(call: QueryCall): Promise<PrometheusReply> {
    const request = queryRequest(call, this.clock, this.engine.timeoutMs);
    return Promise.resolve(answerQuery(this.store, request, this.engine));
  }
}
