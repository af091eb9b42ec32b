import type { NextFunction, Request, Response } from 'express';

/**
 * Cross-origin calls to the API v2 as Alertmanager answers them (its API sits behind the `rs/cors`
 * package's defaults): every origin, the methods GET, POST and HEAD, the request headers
 * Origin, Accept, Content-Type and X-Requested-With.
 */
const METHODS = new Set(['GET', 'POST', 'HEAD']);
const REQUEST_HEADERS = new Set(['Origin', 'Accept', 'Content-Type', 'X-Requested-With']);
const PREFLIGHT_VARY = [
  'Origin',
  'Access-Control-Request-Method',
  'Access-Control-Request-Headers',
];

/**
 * The headers of an answer to a request that is not a preflight: `Vary: Origin` always, and
 * `Access-Control-Allow-Origin: *` when it comes from a page (an `Origin`) with a method the
 * API lets pages use (OPTIONS counts as one).
 */
export function v2CorsHeaders(method: string, origin: string | undefined): Record<string, string> {
  if (!origin || !(METHODS.has(method) || method === 'OPTIONS')) return { Vary: 'Origin' };
  return { Vary: 'Origin', 'Access-Control-Allow-Origin': '*' };
}

/**
 * The answer to a browser's preflight (`OPTIONS` with `Access-Control-Request-Method`): always
 * 200 with no body; it allows the call only when it comes from a page, asks for an allowed
 * method and only for allowed headers, and then names them back.
 */
export function v2Preflight(
  origin: string | undefined,
  requestMethod: string,
  requestHeaders: string | undefined,
): Record<string, string | string[]> {
  const vary = { Vary: PREFLIGHT_VARY };
  const method = requestMethod.toUpperCase();
  if (!origin || !METHODS.has(method)) return vary;
  const headers = headerList(requestHeaders ?? '');
  if (!headers.every((h) => REQUEST_HEADERS.has(h))) return vary;
  return {
    ...vary,
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Allow-Methods': method,
    ...(headers.length > 0 ? { 'Access-Control-Allow-Headers': headers.join(', ') } : {}),
  };
}

/**
 * `Access-Control-Request-Headers` as `rs/cors` reads it: names split at spaces and commas, only
 * letters, digits, `-`, `_` and `.` kept, a letter upper-cased at the start and after a `-` and
 * lower-cased elsewhere (`x-requested-with` -> `X-Requested-With`).
 */
function headerList(text: string): string[] {
  const names: string[] = [];
  for (const part of text.split(/[ ,]/)) {
    let name = '';
    let upper = true;
    for (const ch of part) {
      if (/[A-Za-z]/.test(ch)) name += upper ? ch.toUpperCase() : ch.toLowerCase();
      else if (/[-_.0-9]/.test(ch)) name += ch;
      upper = ch === '-';
    }
    if (name !== '') names.push(name);
  }
  return names;
}

/** The API v2's CORS for every path under it, ahead of its controllers. */
export function alertmanagerCors() {
  return (req: Request, res: Response, next: NextFunction): void => {
    const origin = req.headers.origin;
    const requestMethod = req.headers['access-control-request-method'];
    if (req.method === 'OPTIONS' && typeof requestMethod === 'string' && requestMethod !== '') {
      const headers = req.headers['access-control-request-headers'];
      res.set(
        v2Preflight(origin, requestMethod, typeof headers === 'string' ? headers : undefined),
      );
      res.status(200).end();
      return;
    }
    res.set(v2CorsHeaders(req.method, origin));
    next();
  };
}
