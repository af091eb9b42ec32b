import { STATUS_CODES } from 'node:http';
import { HttpClient } from '../http-client';
import type { RemoteWriteConfig } from '../config';
import type { Clock } from '../time/clock';

/** How one attempt to store a batch ended. */
export type StoreOutcome =
  | { readonly ok: true }
  /** `recoverable`: worth trying again (5xx, network, 429 when allowed); `retryAfterMs` from the answer. */
  | {
      readonly ok: false;
      readonly recoverable: boolean;
      readonly error: string;
      readonly retryAfterMs?: number;
    };

/** The start of an error answer kept for the log, as upstream's first line of it. */
const MAX_ERROR_LINE = 1024;

/**
 * POSTs compressed write requests to one remote with Remote Write 1.0's headers, the entry's
 * `headers` and HTTP client settings, each request within `remote_timeout`.
 */
export class RemoteWriteClient {
  private readonly http: HttpClient;

  constructor(
    private readonly config: RemoteWriteConfig,
    private readonly userAgent: string,
    private readonly clock: Clock,
  ) {
    this.http = new HttpClient(config.httpConfig);
  }

  /** Sends one request; never rejects. `signal` aborts it (the queue stopping). */
  async store(body: Uint8Array, signal: AbortSignal): Promise<StoreOutcome> {
    let status: number;
    let text: string;
    let retryAfter: string | undefined;
    try {
      const res = await this.http.send({
        method: 'POST',
        url: this.config.url,
        headers: {
          ...this.config.headers,
          'Content-Encoding': 'snappy',
          'Content-Type': 'application/x-protobuf',
          'User-Agent': this.userAgent,
          'X-Prometheus-Remote-Write-Version': '0.1.0',
        },
        body,
        signal: AbortSignal.any([signal, AbortSignal.timeout(this.config.remoteTimeoutMs)]),
        maxBodyBytes: MAX_ERROR_LINE,
      });
      status = res.status;
      text = res.body;
      const header = res.headers['retry-after'];
      retryAfter = Array.isArray(header) ? header[0] : header;
    } catch (error) {
      const e = error as Error;
      const reason = e.name === 'TimeoutError' ? 'context deadline exceeded' : e.message;
      return { ok: false, recoverable: true, error: `Post "${this.config.url}": ${reason}` };
    }
    if (status >= 200 && status <= 299) return { ok: true };
    const line = text.split('\n', 1)[0];
    const error = `server returned HTTP status ${status} ${STATUS_CODES[status] ?? ''}: ${line}`;
    if (status >= 500 && status <= 599) return { ok: false, recoverable: true, error };
    if (status === 429 && this.config.queueConfig.retryOnHttp429) {
      return {
        ok: false,
        recoverable: true,
        error,
        retryAfterMs: retryAfterMs(retryAfter, this.clock.now()),
      };
    }
    return { ok: false, recoverable: false, error };
  }

  close(): void {
    this.http.close();
  }
}

/**
 * `Retry-After` as seconds or an HTTP date, as upstream reads it; undefined (the usual backoff)
 * when absent or unreadable.
 */
export function retryAfterMs(header: string | undefined, now: number): number | undefined {
  if (header === undefined || header === '') return undefined;
  if (/^\d+$/.test(header)) return Number(header) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
