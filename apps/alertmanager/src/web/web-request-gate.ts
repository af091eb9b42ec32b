import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Logger } from '../logging/logger';
import { parseBasicAuth, type BasicAuthenticator } from './basic-auth';
import type { RateLimiter } from './rate-limiter';
import type { WebConfigSource } from './web-config-loader';

/**
 * What the toolkit's web handler does in front of every route, for each request and with the
 * web config as it is on disk now: a config that no longer loads answers 500; `rate_limit`
 * answers 429 when the bucket is empty; the configured headers are set on every other answer
 * (401s included); with `basic_auth_users`, a request without valid credentials answers 401
 * with `WWW-Authenticate: Basic`. Everything else goes on to `next`.
 */
export class WebRequestGate {
  private lastLoadError: string | undefined;

  constructor(
    private readonly source: WebConfigSource,
    private readonly authenticator: BasicAuthenticator,
    private readonly limiter: RateLimiter | undefined,
    private readonly logger: Logger,
  ) {}

  /** Answers the request itself, or calls `next` (at once or after a password check). */
  handle(req: IncomingMessage, res: ServerResponse, next: () => void): void {
    const { config, error } = this.source.current();
    if (!config) {
      this.logLoadError(error);
      goHttpError(res, 500);
      return;
    }
    this.lastLoadError = undefined;
    if (this.limiter && !this.limiter.allow()) {
      goHttpError(res, 429);
      return;
    }
    for (const [name, value] of Object.entries(config.http_server_config.headers)) {
      res.setHeader(name, value);
    }
    const users = config.basic_auth_users;
    if (users.size === 0) {
      next();
      return;
    }
    const credentials = parseBasicAuth(req.headers.authorization);
    const ok = credentials ? this.authenticator.check(users, credentials) : false;
    if (ok === true) next();
    else if (ok === false) unauthorized(res);
    else {
      ok.then(
        (valid) => {
          // The client may have gone while bcrypt ran; there is nobody left to answer.
          if (res.destroyed || res.headersSent) return;
          if (valid) next();
          else unauthorized(res);
        },
        () => goHttpError(res, 500),
      );
    }
  }

  // Upstream logs at every request; once per distinct error keeps a broken file from flooding.
  private logLoadError(error: Error): void {
    if (error.message === this.lastLoadError) return;
    this.lastLoadError = error.message;
    this.logger.error('Unable to parse configuration', { err: error.message });
  }
}

function unauthorized(res: ServerResponse): void {
  res.setHeader('WWW-Authenticate', 'Basic');
  goHttpError(res, 401);
}

/** Go's `http.Error(w, http.StatusText(status), status)`: a plain-text status line as body. */
function goHttpError(res: ServerResponse, status: number): void {
  const body = `${STATUS_CODES[status] ?? ''}\n`;
  res.writeHead(status, {
    'Content-Type': 'text/plain; charset=utf-8',
    'X-Content-Type-Options': 'nosniff',
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
}
