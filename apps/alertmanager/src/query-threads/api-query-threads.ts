import {
  failureReply,
  PrometheusApiError,
  type PrometheusReply,
} from '../api/prometheus/prometheus-reply';
import {
  QUEUE_TIMEOUT,
  queryRequest,
  type QueryCall,
  type QueryRunner,
} from '../api/prometheus/query-request';
import type { Clock } from '../time/clock';
import type { QueryThreadPool, ThreadOutcome } from './query-thread-pool';

/**
 * The Prometheus query API's calls on query threads: each stamped with the server's now and
 * `--query.timeout`, answered with the thread's reply, or with upstream's error for a query that
 * waited or ran past its timeout.
 */
export class ApiQueryThreads implements QueryRunner {
  constructor(
    private readonly pool: QueryThreadPool,
    private readonly clock: Clock,
    private readonly timeoutMs: number,
  ) {}

  async run(call: QueryCall): Promise<PrometheusReply> {
    const request = queryRequest(call, this.clock, this.timeoutMs);
    const outcome = await this.pool.run({ kind: 'api', request }, request.deadlineMs);
    return outcome.kind === 'answer' ? (outcome.reply as PrometheusReply) : failed(outcome);
  }
}

function failed(outcome: Extract<ThreadOutcome, { kind: 'failed' }>): PrometheusReply {
  switch (outcome.reason) {
    case 'queued':
      return failureReply(new PrometheusApiError('timeout', QUEUE_TIMEOUT));
    case 'stuck':
      return failureReply(
        new PrometheusApiError('timeout', 'query timed out in expression evaluation'),
      );
    case 'closed':
      return failureReply(new PrometheusApiError('unavailable', 'shutting down'));
    case 'exited':
      return failureReply(new PrometheusApiError('internal', 'query thread exited'));
  }
}
