import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Logger as NestLogger } from '@nestjs/common';
import type { AlertIntake } from '../alerts/alert-intake';
import type { RequestBodyReader } from './request-body';
import type { ApiReply } from './v2/http-io';
import { v2CorsHeaders } from './v2/cors';
import { postAlertsReply, postSilenceReply } from './v2/post-replies';
import { SilencesApi } from './v2/silences-api';

/** Express's `etag fn` setting: the ETag of a response body, or undefined when disabled. */
export type EtagFn = (body: Buffer, encoding?: BufferEncoding) => string | undefined;

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * The busiest routes answered straight from Node's request event, ahead of Express and Nest's
 * router: `POST /api/v2/alerts`, `POST /api/v2/silences` and `GET /-/healthy`, at exactly these
 * paths (under the route prefix, without a query string). Every other request, and any variant
 * Express would also route here (another letter case, a trailing slash, a query string, a
 * conditional or HEAD health check), goes on to Express and the controllers, which compute the
 * same answers with the same functions ({@link postAlertsReply}, {@link postSilenceReply}).
 * Responses are written as Express writes them: the same status, headers (ETag included, from
 * the app's own `etag fn`) and body, as one `writeHead` and one `end`.
 */
export class HotRoutes {
  constructor(
    private readonly intake: AlertIntake,
    private readonly silencesApi: SilencesApi,
    private readonly bodies: RequestBodyReader,
  ) {}

  /**
   * Puts the hot routes in front of the server's current request listeners (the Express app),
   * which still receive every request the hot routes do not take.
   */
  install(server: Server, routePrefix: string, etag: EtagFn | undefined): void {
    const fallback = server.listeners('request') as Listener[];
    server.removeAllListeners('request');
    const handle = this.handler(routePrefix, etag);
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      if (handle(req, res)) return;
      for (const listener of fallback) listener.call(server, req, res);
    });
  }

  /** The function answering a request when it is one of the hot routes; false when not. */
  handler(
    routePrefix: string,
    etag: EtagFn | undefined,
  ): (req: IncomingMessage, res: ServerResponse) => boolean {
    const alerts = `${routePrefix}/api/v2/alerts`;
    const silences = `${routePrefix}/api/v2/silences`;
    const healthy = `${routePrefix}/-/healthy`;
    const ok = Buffer.from('OK');
    const healthyHeaders = withEtag(
      { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': ok.length },
      ok,
      etag,
    );
    return (req: IncomingMessage, res: ServerResponse): boolean => {
      const { url, method } = req;
      if (method === 'POST') {
        if (url === silences) {
          this.answer(postSilenceReply(this.silencesApi, this.bodies, req), req, res, etag);
          return true;
        }
        if (url === alerts) {
          this.answer(postAlertsReply(this.intake, this.bodies, req), req, res, etag);
          return true;
        }
        return false;
      }
      // A conditional GET may be answered 304 by Express: leave it to Express.
      if (
        method === 'GET' &&
        url === healthy &&
        req.headers['if-none-match'] === undefined &&
        req.headers['if-modified-since'] === undefined
      ) {
        res.writeHead(200, healthyHeaders);
        res.end(ok);
        return true;
      }
      return false;
    };
  }

  private answer(
    reply: Promise<ApiReply>,
    req: IncomingMessage,
    res: ServerResponse,
    etag: EtagFn | undefined,
  ): void {
    // The API v2's CORS headers, set ahead of the controllers' as its middleware sets them.
    const cors = v2CorsHeaders('POST', req.headers.origin);
    reply.then(
      (r) => writeReply(res, r, etag, cors),
      (error: unknown) => unknownError(res, error, etag, cors),
    );
  }
}

function withEtag(
  headers: Record<string, string | number>,
  body: Buffer,
  etag: EtagFn | undefined,
): Record<string, string | number> {
  const tag = etag?.(body);
  if (tag) headers['ETag'] = tag;
  return headers;
}

/** An {@link ApiReply} with the headers `sendReply` gets from Express. */
function writeReply(
  res: ServerResponse,
  reply: ApiReply,
  etag: EtagFn | undefined,
  cors: Record<string, string>,
): void {
  if (reply.body === undefined) {
    // As `res.status(s).end()`: Node adds `Content-Length: 0` after its own headers.
    res.statusCode = reply.status;
    for (const [name, value] of Object.entries(cors)) res.setHeader(name, value);
    res.setHeader('Cache-Control', 'no-store');
    res.end();
    return;
  }
  const body = Buffer.from(reply.body);
  const headers = withEtag(
    {
      ...cors,
      'Cache-Control': 'no-store',
      ...reply.headers,
      'Content-Type': JSON_TYPE,
      'Content-Length': body.length,
    },
    body,
    etag,
  );
  res.writeHead(reply.status, headers);
  res.end(body);
}

const exceptionsLogger = new NestLogger('ExceptionsHandler');

/**
 * What Nest's exception filter does with an error a controller did not handle (a request aborted
 * while its body was read): the same 500 (or an HTTP error's own status) and the same log line.
 */
function unknownError(
  res: ServerResponse,
  error: unknown,
  etag: EtagFn | undefined,
  cors: Record<string, string>,
): void {
  const e = error as { statusCode?: number; message?: string; expose?: boolean } | undefined;
  const internal = 'Internal server error';
  // An error of the `http-errors` kind carries its own status and says whether to show it.
  const httpError = e?.statusCode && e.message ? e : undefined;
  const status = httpError?.statusCode ?? 500;
  const message = !httpError
    ? internal
    : httpError.expose === false
      ? (STATUS_CODES[status] ?? internal)
      : httpError.message;
  if (res.headersSent) res.end();
  else {
    const body = Buffer.from(JSON.stringify({ statusCode: status, message }));
    res.writeHead(
      status,
      withEtag({ ...cors, 'Content-Type': JSON_TYPE, 'Content-Length': body.length }, body, etag),
    );
    res.end(body);
  }
  exceptionsLogger.error(error);
}
