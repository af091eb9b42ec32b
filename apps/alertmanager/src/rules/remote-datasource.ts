import type { QueryResult } from '../promql';
import { Labels } from '../tsdb/labels';
import { RuleEvaluationError } from './alerting-rule-state';
import type { RemoteQueries } from './group-evaluator';

/** A Prometheus API answer, as far as rule evaluation reads it. */
interface ApiAnswer {
  status?: string;
  errorType?: string;
  error?: string;
  warnings?: string[];
  data?: { resultType?: string; result?: unknown };
}

/**
 * Rule expressions answered by a Prometheus-compatible query API (Prometheus, Thanos, Mimir,
 * VictoriaMetrics) instead of the embedded store: `POST <url>/api/v1/query` per expression, all
 * of a group's at once, each within `timeoutMs`. A failure becomes the rule's error (health
 * `err`, with the datasource's error type and message), so the rules API shows why.
 */
export class RemoteDatasource implements RemoteQueries {
  private readonly endpoint: string;

  constructor(
    url: string,
    private readonly timeoutMs: number,
    private readonly headers: Readonly<Record<string, string>> = {},
  ) {
    this.endpoint = `${url.replace(/\/+$/, '')}/api/v1/query`;
  }

  queryAll(exprs: readonly string[], timeMs: number): Promise<(QueryResult | Error)[]> {
    return Promise.all(
      exprs.map((expr) => this.query(expr, timeMs).catch((error: Error) => error)),
    );
  }

  async query(expr: string, timeMs: number): Promise<QueryResult> {
    let answer: ApiAnswer;
    let status: number;
    try {
      const res = await fetch(this.endpoint, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...this.headers },
        body: new URLSearchParams({ query: expr, time: String(timeMs / 1000) }).toString(),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      status = res.status;
      answer = (await res.json()) as ApiAnswer;
    } catch (error) {
      const e = error as Error;
      const why =
        e.name === 'TimeoutError' ? `no answer within ${this.timeoutMs / 1000}s` : describe(e);
      throw new RuleEvaluationError(`remote datasource ${this.endpoint}: ${why}`);
    }
    if (answer.status !== 'success') {
      throw new RuleEvaluationError(
        `remote datasource ${this.endpoint}: ${status} ${answer.errorType ?? 'error'}: ${answer.error ?? 'no error message'}`,
      );
    }
    return toQueryResult(answer, this.endpoint);
  }
}

function describe(error: Error): string {
  const cause = (error as Error & { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? error.message;
}

function toQueryResult(answer: ApiAnswer, endpoint: string): QueryResult {
  const extras = { warnings: answer.warnings ?? [], infos: [] };
  const data = answer.data ?? {};
  if (data.resultType === 'vector' && Array.isArray(data.result)) {
    const samples = (
      data.result as { metric: Record<string, string>; value: [number, string] }[]
    ).map((s) => ({
      metric: Labels.fromRecord(s.metric ?? {}),
      t: Math.round(s.value[0] * 1000),
      f: parseValue(s.value[1]),
    }));
    return { type: 'vector', samples, ...extras };
  }
  if (data.resultType === 'scalar' && Array.isArray(data.result)) {
    const [t, v] = data.result as [number, string];
    return { type: 'scalar', t: Math.round(t * 1000), f: parseValue(v), ...extras };
  }
  throw new RuleEvaluationError(
    `remote datasource ${endpoint}: unexpected result type ${String(data.resultType)}`,
  );
}

/** A sample value as Prometheus writes it: a number, `NaN`, `+Inf` or `-Inf`. */
function parseValue(text: string): number {
  if (text === '+Inf') return Infinity;
  if (text === '-Inf') return -Infinity;
  return Number(text);
}
