import type { NextFunction, Request, Response } from 'express';
import { compileAnchoredRe2, type Re2Pattern } from '../../re2';

/** What Prometheus sends a page of another origin, with `Access-Control-Allow-Origin`. */
const CORS_HEADERS = {
  'Access-Control-Allow-Headers': 'Accept, Authorization, Content-Type, Origin',
  'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
  'Access-Control-Expose-Headers': 'Date',
  Vary: 'Origin',
};

/**
 * `--web.cors.origin` compiled as Prometheus compiles it (fully anchored); a bad regex is refused
 * in Prometheus's words.
 */
export function corsOriginPattern(text: string): Re2Pattern {
  try {
    return compileAnchoredRe2(text);
  } catch (error) {
    throw new Error(
      `could not compile CORS regex string ${JSON.stringify(text)}: ${(error as Error).message}`,
    );
  }
}

/**
 * Cross-origin calls to the Prometheus API (`/api/v1`), as Prometheus answers them: a request with
 * an `Origin` gets the CORS headers on whatever it is answered, with `Access-Control-Allow-Origin`
 * `*` when `--web.cors.origin` is `.*` and the origin itself when the regex accepts it (none
 * otherwise, so the browser refuses the answer); `OPTIONS` (a browser's preflight) on any path
 * is answered 204 with no body. A request without `Origin` is left as it is.
 */
export function prometheusCors(origin: Re2Pattern) {
  const any = origin.source === '.*';
  return (req: Request, res: Response, next: NextFunction): void => {
    const from = req.headers.origin;
    if (from !== undefined && from !== '') {
      res.set(CORS_HEADERS);
      if (any) res.set('Access-Control-Allow-Origin', '*');
      else if (origin.matches(from)) res.set('Access-Control-Allow-Origin', from);
    }
    if (req.method === 'OPTIONS') {
      res.status(204).end();
      return;
    }
    next();
  };
}
