import { AmtoolError } from './amtool-error';
import { AmtoolHttpClient, type AmtoolResponse } from './amtool-http-client';

/**
 * How to reach the Alertmanager: base URL (`--alertmanager.url`, without user info), `--timeout`
 * in ms, and the HTTP client (from `--http.config.file` or the URL's user info; plain without).
 */
export interface AmtoolTarget {
  baseUrl: string;
  timeoutMs: number;
  client?: AmtoolHttpClient;
}

// The statuses the API spec defines for some operation; go-swagger's client reports any other
// one as not matching the spec (a 401 from a web config's basic auth, for instance).
const definedBySpec = (status: number) => status === 400 || status === 404 || status >= 500;

// Go's words for the certificate errors an HTTPS user meets first.
const TLS_ERRORS: Record<string, string> = {
  SELF_SIGNED_CERT_IN_CHAIN: 'x509: certificate signed by unknown authority',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'x509: certificate signed by unknown authority',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'x509: certificate signed by unknown authority',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'x509: certificate signed by unknown authority',
  CERT_HAS_EXPIRED: 'x509: certificate has expired or is not yet valid',
};

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
  const signal = AbortSignal.timeout(target.timeoutMs);
  let res: AmtoolResponse;
  try {
    const client = target.client ?? (await AmtoolHttpClient.plain());
    res = await client.send({
      method: call.method,
      url,
      headers: call.body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: call.body === undefined ? undefined : JSON.stringify(call.body),
      signal,
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    const reason = signal.aborted
      ? 'context deadline exceeded'
      : (TLS_ERRORS[code] ?? (error as Error).message);
    throw new AmtoolError(`${verb} "${url}": ${reason}`);
  }
  const text = res.body;
  if (res.status < 200 || res.status > 299) {
    if (!definedBySpec(res.status)) {
      throw new AmtoolError(
        `response status code does not match any response statuses defined for this endpoint in the swagger spec (status ${res.status}): {}`,
      );
    }
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
