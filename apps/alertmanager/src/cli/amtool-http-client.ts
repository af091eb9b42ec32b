import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { ConnectionOptions } from 'node:tls';
import { defaultHttpConfig } from '../config/decoder/http-config.decoder';
import type { HttpConfig } from '../config';
import { credentialHeaders } from './http-client-credentials';
import { clientTlsOptions } from './http-client-tls';

/** One request as amtool sends it. */
export interface AmtoolRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
}

/** A response: status, the server's reason phrase and the whole body. */
export interface AmtoolResponse {
  status: number;
  statusText: string;
  body: string;
}

// Go's http.Client gives up after 10 redirects.
const MAX_REDIRECTS = 10;

/**
 * amtool's HTTP client: plain HTTP or HTTPS, with what an `--http.config.file` asks for
 * (`basic_auth`, `authorization`/`bearer_token`, `http_headers`, `tls_config`,
 * `follow_redirects`). As Go's client, it follows up to 10 redirects and keeps credentials
 * from reaching another host. Proxies and OAuth2 are refused when the client is made.
 */
export class AmtoolHttpClient {
  private readonly http = new HttpAgent({ keepAlive: true });
  private readonly https: HttpsAgent;

  private constructor(
    private readonly config: HttpConfig,
    tls: ConnectionOptions,
  ) {
    this.https = new HttpsAgent({ keepAlive: true, ...tls });
  }

  /** A client without configuration, as amtool has without `--http.config.file`. */
  static async plain(): Promise<AmtoolHttpClient> {
    return AmtoolHttpClient.fromConfig(defaultHttpConfig());
  }

  /**
   * A client for an `http_config`; rejects with upstream's reason when it cannot be made (an
   * unreadable CA or client certificate, a setting this client does not support).
   */
  static async fromConfig(config: HttpConfig): Promise<AmtoolHttpClient> {
    if (config.oauth2) throw new Error('oauth2 is not supported by redisx-amtool');
    if (config.proxy_url || config.proxy_from_environment) {
      throw new Error(
        'proxies (proxy_url, proxy_from_environment) are not supported by redisx-amtool',
      );
    }
    return new AmtoolHttpClient(config, await clientTlsOptions(config.tls_config));
  }

  /** Sends the request, following redirects unless `follow_redirects: false`. */
  async send(req: AmtoolRequest): Promise<AmtoolResponse> {
    let { method, body } = req;
    let url = new URL(req.url);
    const origin = url.host;
    const credentials = await credentialHeaders(this.config);
    for (let hop = 0; ; hop++) {
      // As Go's client, credentials set by the config are not sent to another host.
      const auth = url.host === origin ? credentials : {};
      const res = await this.once(method, url, body, { ...auth, ...req.headers }, req.signal);
      const location = res.headers.location;
      const redirect =
        res.statusCode !== undefined && res.statusCode >= 300 && res.statusCode < 400;
      if (!redirect || !location || !this.config.follow_redirects) return readResponse(res);
      res.resume();
      if (hop === MAX_REDIRECTS) throw new Error(`stopped after ${MAX_REDIRECTS} redirects`);
      url = new URL(location, url);
      // 301/302/303 turn the request into a body-less GET; 307/308 repeat it as it was.
      if (res.statusCode !== 307 && res.statusCode !== 308 && method !== 'HEAD') {
        method = 'GET';
        body = undefined;
      }
    }
  }

  private once(
    method: string,
    url: URL,
    body: string | undefined,
    headers: Record<string, string | string[]>,
    signal: AbortSignal,
  ): Promise<IncomingMessage> {
    const secure = url.protocol === 'https:';
    const send = secure ? httpsRequest : httpRequest;
    const agent = secure ? this.https : this.http;
    const all =
      body === undefined ? headers : { ...headers, 'Content-Length': `${Buffer.byteLength(body)}` };
    return new Promise((resolve, reject) => {
      const request = send(url, { method, headers: all, agent, signal }, resolve);
      request.on('error', reject);
      request.end(body);
    });
  }
}

function readResponse(res: IncomingMessage): Promise<AmtoolResponse> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (chunk: Buffer) => chunks.push(chunk));
    res.on('end', () =>
      resolve({
        status: res.statusCode ?? 0,
        statusText: res.statusMessage ?? '',
        body: Buffer.concat(chunks).toString('utf8'),
      }),
    );
    res.on('error', reject);
  });
}
