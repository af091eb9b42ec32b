import type { RequestHandler } from 'express';
import { corsOriginPattern, prometheusCors } from './prometheus/cors';
import { alertmanagerCors } from './v2/cors';

/**
 * Cross-origin calls as each upstream answers them: the Prometheus API (`/api/v1`) by
 * `--web.cors.origin`, the Alertmanager API v2 by Alertmanager's fixed rules. Installed ahead of
 * the controllers (the hot routes add the API v2's headers themselves).
 */
export function installCors(
  app: { use(path: string, handler: RequestHandler): unknown },
  routePrefix: string,
  corsOrigin = '.*',
): void {
  app.use(`${routePrefix}/api/v1`, prometheusCors(corsOriginPattern(corsOrigin)));
  app.use(`${routePrefix}/api/v2`, alertmanagerCors());
}
