import type { HttpConfig, OAuth2 } from '../config';
import { readSecret } from './http-secrets';

/** What the token endpoint's answer gives. */
interface TokenAnswer {
  access_token?: string;
  token_type?: string;
  expires_in?: number | string;
}

/** A token is refreshed this long before it expires, as x/oauth2 does. */
const EXPIRY_DELTA_MS = 10_000;

/** Sends one request (the HTTP client of the token endpoint, without OAuth2 itself). */
export type TokenPost = (
  url: string,
  headers: Record<string, string>,
  body: string,
  signal?: AbortSignal,
) => Promise<{ status: number; body: string }>;

/**
 * OAuth 2.0 client credentials as prometheus/common's `http_config.oauth2` gets them: a POST of
 * `grant_type=client_credentials` (with `scope` and `endpoint_params`) to `token_url`, the client
 * id and secret in a Basic `Authorization` header, or in the form when the server refuses that,
 * as x/oauth2 detects; the token is reused until ten seconds before it expires.
 */
export class OAuth2TokenSource {
  private cached: { header: string; expiresAt: number } | undefined;
  private pending: Promise<string> | undefined;
  private inForm = false;

  constructor(
    private readonly config: OAuth2,
    private readonly post: TokenPost,
    private readonly now: () => number = Date.now,
  ) {}

  /** The `Authorization` header value to send (`Bearer <token>`). */
  async header(signal?: AbortSignal): Promise<string> {
    if (this.cached && this.cached.expiresAt > this.now()) return this.cached.header;
    this.pending ??= this.fetch(signal).finally(() => (this.pending = undefined));
    return this.pending;
  }

  private async fetch(signal?: AbortSignal): Promise<string> {
    const secret = await readSecret(this.config.client_secret, this.config.client_secret_file);
    const form = new URLSearchParams({ grant_type: 'client_credentials' });
    if (this.config.scopes.length > 0) form.set('scope', this.config.scopes.join(' '));
    for (const [k, v] of Object.entries(this.config.endpoint_params)) form.set(k, v);
    const ask = (inForm: boolean) => {
      const body = new URLSearchParams(form);
      const headers: Record<string, string> = {
        'Content-Type': 'application/x-www-form-urlencoded',
      };
      if (inForm) {
        body.set('client_id', this.config.client_id);
        if (secret !== '') body.set('client_secret', secret);
      } else {
        const id = encodeURIComponent(this.config.client_id);
        headers.Authorization = `Basic ${Buffer.from(`${id}:${encodeURIComponent(secret)}`).toString('base64')}`;
      }
      return this.post(this.config.token_url, headers, body.toString(), signal);
    };
    let res = await ask(this.inForm);
    if (!this.inForm && (res.status === 400 || res.status === 401)) {
      // The server wants the credentials in the form; remembered for next time.
      const second = await ask(true);
      if (second.status >= 200 && second.status < 300) this.inForm = true;
      res = second;
    }
    let answer: TokenAnswer;
    try {
      answer = JSON.parse(res.body) as TokenAnswer;
    } catch {
      answer = Object.fromEntries(new URLSearchParams(res.body)) as TokenAnswer;
    }
    if (res.status < 200 || res.status > 299 || !answer.access_token) {
      throw new Error(`oauth2: cannot fetch token: ${res.status}\nResponse: ${res.body.trim()}`);
    }
    const type =
      !answer.token_type || /^bearer$/i.test(answer.token_type) ? 'Bearer' : answer.token_type;
    const header = `${type} ${answer.access_token}`;
    const expiresIn = Number(answer.expires_in ?? 0);
    this.cached = {
      header,
      expiresAt: expiresIn > 0 ? this.now() + expiresIn * 1000 - EXPIRY_DELTA_MS : Infinity,
    };
    return header;
  }
}

/** The HTTP settings of the token requests: the oauth2 block's TLS and proxy, no auth. */
export function tokenEndpointConfig(http: HttpConfig, oauth2: OAuth2): HttpConfig {
  return {
    tls_config: oauth2.tls_config,
    follow_redirects: http.follow_redirects,
    enable_http2: http.enable_http2,
    proxy_url: oauth2.proxy_url,
    no_proxy: oauth2.no_proxy,
    proxy_from_environment: oauth2.proxy_from_environment,
    proxy_connect_header: oauth2.proxy_connect_header,
    http_headers: {},
  };
}
