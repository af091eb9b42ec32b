import { availableParallelism } from 'node:os';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Counter, Gauge, type Registry } from 'prom-client';
import { formatDuration as formatGoDuration } from '../template/funcs/go-time';

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/** `--web.get-concurrency` and `--web.timeout`. */
export interface RequestLimitOptions {
  /** Most GET requests served at once; 0 or less for the larger of the CPU count and 8. */
  getConcurrency: number;
  /** Longest a request may take (ms); 0 for no limit. */
  timeoutMs: number;
}

/**
 * Upstream's limits on every request, in front of everything else the server answers: a GET
 * beyond `--web.get-concurrency` requests in flight is refused with 503 (`Limit of concurrent GET
 * requests reached (8), try again later.`), counted in
 * `alertmanager_http_concurrency_limit_exceeded_total`; a request still unanswered after
 * `--web.timeout` gets 503 `Exceeded configured timeout of 5s.` as Go's `TimeoutHandler` sends,
 * and whatever its handler writes later is dropped.
 */
export function installRequestLimits(
  server: Server,
  options: RequestLimitOptions,
  registry: Registry,
): void {
  const limit =
    options.getConcurrency > 0 ? options.getConcurrency : Math.max(availableParallelism(), 8);
  const inFlight = new Gauge({
    name: 'alertmanager_http_requests_in_flight',
    help: 'Current number of HTTP requests being processed.',
    labelNames: ['method'],
    registers: [registry],
  });
  const exceeded = new Counter({
    name: 'alertmanager_http_concurrency_limit_exceeded_total',
    help: 'Total number of times an HTTP request failed because the concurrency limit was reached.',
    labelNames: ['method'],
    registers: [registry],
  });
  inFlight.set({ method: 'get' }, 0);
  exceeded.inc({ method: 'get' }, 0);
  let running = 0;
  const next = server.listeners('request') as Listener[];
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (req.method === 'GET') {
      if (running >= limit) {
        exceeded.inc({ method: 'get' });
        plainReply(
          res,
          503,
          `Limit of concurrent GET requests reached (${limit}), try again later.\n`,
        );
        return;
      }
      running++;
      inFlight.set({ method: 'get' }, running);
      res.once('close', () => {
        running--;
        inFlight.set({ method: 'get' }, running);
      });
    }
    if (options.timeoutMs > 0) guardTimeout(res, options.timeoutMs);
    for (const listener of next) listener.call(server, req, res);
  });
}

function plainReply(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, {
    'Content-Type': 'text/plain; charset=utf-8',
    'X-Content-Type-Options': 'nosniff',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
}

/** Answers 503 when the handler has not finished in time; its later writes go nowhere. */
function guardTimeout(res: ServerResponse, timeoutMs: number): void {
  const timer = setTimeout(() => {
    if (res.writableEnded) return;
    if (!res.headersSent) {
      plainReply(res, 503, `Exceeded configured timeout of ${formatGoDuration(timeoutMs)}.\n`);
    } else {
      res.destroy();
    }
    // The handler still runs; what it writes now is discarded, as Go's TimeoutHandler does.
    const ignore = (() => res) as never;
    Object.assign(res, { writeHead: ignore, setHeader: ignore, write: () => true, end: ignore });
  }, timeoutMs);
  timer.unref();
  res.once('close', () => clearTimeout(timer));
}
