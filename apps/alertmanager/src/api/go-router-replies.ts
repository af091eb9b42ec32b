import type { Response } from 'express';

/**
 * The answers of Go's `httprouter` (the router under both Alertmanager and Prometheus) for a
 * request no route takes, as plain text with `X-Content-Type-Options: nosniff`.
 */

/** `Allow`: the path's methods and OPTIONS, sorted. */
const allowOf = (methods: readonly string[]): string =>
  [...new Set([...methods, 'OPTIONS'])].sort().join(', ');

/** `405 Method Not Allowed`, with {@link allowOf}. */
export function sendGoMethodNotAllowed(res: Response, methods: readonly string[]): void {
  res
    .status(405)
    .set('Allow', allowOf(methods))
    .set('X-Content-Type-Options', 'nosniff')
    .type('text/plain; charset=utf-8')
    .send('Method Not Allowed\n');
}

/** `OPTIONS` on a path without its own: 200, `Allow` as for a 405, no body. */
export function sendGoOptions(res: Response, methods: readonly string[]): void {
  res.status(200).set('Allow', allowOf(methods)).end();
}

/** Go's `http.NotFound`. */
export function sendGoNotFound(res: Response): void {
  res
    .status(404)
    .set('X-Content-Type-Options', 'nosniff')
    .type('text/plain; charset=utf-8')
    .send('404 page not found\n');
}
