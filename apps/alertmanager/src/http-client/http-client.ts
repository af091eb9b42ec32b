import { createHash } from 'node:crypto';
import {
  Agent as HttpAgent,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type RequestOptions,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { buildInfo } from '../build/build-info';
import type { HttpConfig } from '../config';
import type { BodyBuffer } from './body-buffer';
import { configHeaders } from './http-secrets';
import { OAuth2TokenSource, tokenEndpointConfig } from './oauth2-token';
import { proxyFor } from './proxy-for';
import { openTunnel, proxyAuthorization, toProxy } from './proxy-tunnel';
import { tlsOptions } from './tls-options';

/** One request through {@link HttpClient}. */
export interface HttpRequest {
  method: string;
  url: string;
  headers?: Record<string, string>;
  /** Text, or bytes as they are (a compressed remote write request). */
  body?: string | Uint8Array;
  /** Aborts the request (the flush deadline, or an integration's own timeout). */
  signal?: AbortSignal;
  /** How much of the body to keep; {@link MAX_BODY_BYTES} (enough for error messages) by default. */
  maxBodyBytes?: number;
  /**
   * Memory the body is read into, reused by a caller that sends one request at a time; the
   * response's bytes are then valid until its next request.
   */
  bodyBuffer?: BodyBuffer;
}

/** A response; the body is read up to {@link MAX_BODY_BYTES} for error messages. */
export interface HttpResponse {
  status: number;
  /** The body as text, decoded when first read. */
  body: string;
  /** The body as it came (the client's responses always have it). */
  bytes?: Buffer;
  /** The response's headers (of the last hop). */
  headers: IncomingHttpHeaders;
  /** Whether the body was longer than the request's `maxBodyBytes` and was cut. */
  truncated: boolean;
}

/** How much of a response body is kept. */
export const MAX_BODY_BYTES = 64 * 1024;

/** Go's http.Client gives up after 10 redirects. */
const MAX_REDIRECTS = 10;

/** Errors that cut a response after its headers arrived (while its body was read). */
const bodyErrors = new WeakSet<object>();

/**
 * Whether a request failed while its response's body was read, its headers already in: Go's
 * client then reports the bare error, not one of the request (`Get "<url>": ...`).
 */
export function failedReadingBody(error: unknown): boolean {
  return typeof error === 'object' && error !== null && bodyErrors.has(error);
}

/** `User-Agent` of every notification request, in upstream's `Alertmanager/<version>` form. */
export function userAgent(): string {
  return `Alertmanager/${buildInfo().version}`;
}

/**
 * A small HTTP(S) client honouring a receiver's `http_config`: auth headers and extra headers,
 * `tls_config`, `follow_redirects`, and the proxy settings (`proxy_url`, `no_proxy`,
 * `proxy_from_environment`, `proxy_connect_header`); direct connections are kept alive.
 * (`oauth2` tokens from `oauth2-token.ts`; SOCKS proxies and HTTP/2 are not supported; the receiver registry warns when a
 * config asks for them.)
 */
export class HttpClient {
  private readonly httpAgent = new HttpAgent({ keepAlive: true });
  private https: { key: string; agent: HttpsAgent } | undefined;

  /** `oauth2`'s token, fetched through a client of its own (the oauth2 block's TLS and proxy). */
  private readonly oauth2: { source: OAuth2TokenSource; client: HttpClient } | undefined;

  constructor(private readonly config: HttpConfig) {
    if (config.oauth2) {
      const client = new HttpClient(tokenEndpointConfig(config, config.oauth2));
      const source = new OAuth2TokenSource(config.oauth2, (url, headers, body, signal) =>
        client.send({ method: 'POST', url, headers, body, signal }),
      );
      this.oauth2 = { source, client };
    }
  }

  /** Sends the request, following redirects when configured; rejects on network errors. */
  async send(req: HttpRequest): Promise<HttpResponse> {
    let { method, body } = req;
    let url = new URL(req.url);
    for (let hop = 0; ; hop++) {
      const res = await this.once(method, url, body, req);
      const location = res.location;
      if (!this.config.follow_redirects || !location || res.status < 300 || res.status > 399) {
        return withBody(
          { status: res.status, headers: res.headers, truncated: res.truncated },
          res.bytes,
        );
      }
      if (hop === MAX_REDIRECTS) throw new Error(`stopped after ${MAX_REDIRECTS} redirects`);
      url = new URL(location, url);
      // As Go: 301/302/303 turn a POST into a body-less GET; 307/308 repeat the request.
      if (res.status !== 307 && res.status !== 308 && method !== 'HEAD') {
        method = 'GET';
        body = undefined;
      }
    }
  }

  /** Closes idle keep-alive connections. */
  close(): void {
    this.httpAgent.destroy();
    this.https?.agent.destroy();
    this.oauth2?.client.close();
  }

  private async once(
    method: string,
    url: URL,
    body: string | Uint8Array | undefined,
    req: HttpRequest,
  ): Promise<HttpResponse & { location?: string; bytes: Buffer }> {
    const headers: Record<string, string | string[]> = {
      'User-Agent': userAgent(),
      ...(await configHeaders(this.config)),
      ...(this.oauth2 ? { Authorization: await this.oauth2.source.header(req.signal) } : {}),
      ...req.headers,
    };
    if (body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(body));
    const secure = url.protocol === 'https:';
    const proxy = proxyFor(url, this.config);
    let options: RequestOptions & { host?: string; port?: number; path?: string };
    let send = secure ? httpsRequest : httpRequest;
    if (!proxy) {
      options = { agent: secure ? await this.httpsAgent() : this.httpAgent };
    } else if (proxy.protocol !== 'http:' && proxy.protocol !== 'https:') {
      throw new Error(`proxy scheme ${proxy.protocol.slice(0, -1)} is not supported`);
    } else if (secure) {
      // HTTPS through a proxy: a CONNECT tunnel per request, TLS to the target inside it.
      const tls = await tlsOptions(this.config.tls_config);
      const socket = await openTunnel(url, proxy, this.config, tls, req.signal);
      // No agent: Node then uses createConnection (with `agent: false` it would dial itself).
      options = { createConnection: () => socket, defaultPort: 443 };
    } else {
      // Plain HTTP through a proxy: the request goes to the proxy with the absolute URL.
      const via = toProxy(proxy);
      send = via.request;
      options = { host: via.host, port: via.port, path: url.href, agent: false };
      Object.assign(headers, { Host: url.host }, proxyAuthorization(proxy));
    }
    const target = options.path === undefined ? url : undefined;
    return new Promise((resolve, reject) => {
      let responded = false;
      const fail = (error: Error) => {
        if (responded) bodyErrors.add(error);
        reject(error);
      };
      const callback = (res: IncomingMessage) => {
        responded = true;
        readBody(res, req.maxBodyBytes ?? MAX_BODY_BYTES, req.bodyBuffer).then(
          ({ bytes, truncated }) =>
            resolve(
              withBody(
                {
                  status: res.statusCode ?? 0,
                  headers: res.headers,
                  truncated,
                  location: res.headers.location,
                },
                bytes,
              ),
            ),
          fail,
        );
      };
      const all = { ...options, method, headers, signal: req.signal };
      const request = target ? send(target, all, callback) : send(all, callback);
      request.on('error', fail);
      request.end(body);
    });
  }

  /** The HTTPS agent for the current TLS material; rebuilt when a certificate file changed. */
  private async httpsAgent(): Promise<HttpsAgent> {
    const options = await tlsOptions(this.config.tls_config);
    const key = createHash('sha256').update(JSON.stringify(options)).digest('hex');
    if (this.https?.key !== key) {
      this.https?.agent.destroy();
      this.https = { key, agent: new HttpsAgent({ keepAlive: true, ...options }) };
    }
    return this.https.agent;
  }
}

/**
 * `response` with its body: the bytes, and the text decoded from them when first read (a scrape
 * parses the bytes a piece at a time and never makes one string of a large body).
 */
function withBody<R extends object>(
  response: R,
  bytes: Buffer,
): R & { readonly body: string; readonly bytes: Buffer } {
  let text: string | undefined;
  return Object.defineProperties(response, {
    bytes: { value: bytes, enumerable: true },
    body: { get: () => (text ??= bytes.toString('utf8')), enumerable: true },
  }) as R & { readonly body: string; readonly bytes: Buffer };
}

/** The response's body up to `limit` bytes, read into `into` when given. */
function readBody(
  res: IncomingMessage,
  limit: number,
  into?: BodyBuffer,
): Promise<{ bytes: Buffer; truncated: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    if (into !== undefined) {
      const declared = Number(res.headers['content-length']);
      into.begin(Number.isSafeInteger(declared) && declared <= limit ? declared : undefined);
    }
    res.on('data', (chunk: Buffer) => {
      if (size < limit) {
        const kept = chunk.subarray(0, limit - size);
        if (into === undefined) chunks.push(kept);
        else into.append(kept);
      }
      size += chunk.length;
    });
    res.on('end', () =>
      resolve({
        bytes: into === undefined ? Buffer.concat(chunks) : into.bytes,
        truncated: size > limit,
      }),
    );
    res.on('error', reject);
  });
}
