import { AmtoolError } from './amtool-error';

/** How to reach the Alertmanager: base URL (`--alertmanager.url`) and `--timeout` in ms. */
export interface AmtoolTarget {
  baseUrl: string;
  timeoutMs: number;
}

/** One API v2 call's operation name, for go-swagger-like error messages. */
export interface ApiCall {
  method: 'GET' | 'POST' | 'DELETE';
  /** Path under `/api/v2`, e.g. `/alerts`. */
  path: string;
  operation: string;
  /** The path as the API spec names it in errors, e.g. `/silence/{silenceID}`; default `path`. */
  route?: string;
  query?: URLSearchParams;
  body?: unknown;
}

/**
 * Calls the API v2 and returns the parsed JSON (undefined for an empty body). An unreachable
 * server, a timeout, or a non-2xx answer throws {@link AmtoolError} with a one-line reason:
 * `Post "<url>": connect ECONNREFUSED ...` or `[POST /alerts][400] postAlertsBadRequest  <body>`.
 */
export async function callApi(target: AmtoolTarget, call: ApiCall): Promise<unknown> {
  const base = target.baseUrl.replace(/\/+$/, '');
  const qs = call.query?.toString();
  const url = `${base}/api/v2${call.path}${qs ? `?${qs}` : ''}`;
  const verb = call.method[0] + call.method.slice(1).toLowerCase();
  let res: Response;
  try {
    res = await fetch(url, {
      method: call.method,
      headers: call.body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: call.body === undefined ? undefined : JSON.stringify(call.body),
      signal: AbortSignal.timeout(target.timeoutMs),
    });
  } catch (error) {
    const cause = (error as { cause?: { message?: string } }).cause?.message;
    const reason =
      (error as Error).name === 'TimeoutError'
        ? 'context deadline exceeded'
        : (cause ?? (error as Error).message);
    throw new AmtoolError(`${verb} "${url}": ${reason}`);
  }
  const text = await res.text();
  if (!res.ok) {
    const name = `${call.operation}${res.status === 400 ? 'BadRequest' : res.status >= 500 ? 'InternalServerError' : res.statusText.replace(/\s+/g, '')}`;
    throw new AmtoolError(
      `[${call.method} ${call.route ?? call.path}][${res.status}] ${name}  ${text.trim()}`,
    );
  }
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new AmtoolError(`${verb} "${url}": the answer is not JSON`);
  }
}
