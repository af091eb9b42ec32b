import { hostname } from 'node:os';

/** The URL users reach this server at, and the path prefix its routes are served under. */
export interface ExternalUrl {
  /** Without a trailing slash, e.g. `http://am.example.com/alertmanager`. */
  url: string;
  /** Path prefix of every route, `''` or e.g. `/alertmanager`. */
  routePrefix: string;
}

/**
 * Resolves `--web.external-url` and `--web.route-prefix` as Alertmanager does: the external URL
 * defaults to `http://<hostname>:<port>`, and the route prefix defaults to the external URL's path.
 */
export function resolveExternalUrl(
  flag: string | undefined,
  routePrefixFlag: string | undefined,
  port: number,
  host: () => string = hostname,
): ExternalUrl {
  const raw = flag && flag !== '' ? flag : `http://${host()}:${port}/`;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new Error(`invalid --web.external-url "${raw}": not an absolute URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new Error(`invalid --web.external-url "${raw}": scheme must be http or https`);
  }
  const path = parsed.pathname.replace(/\/+$/, '');
  const url = `${parsed.protocol}//${parsed.host}${path}`;
  const prefix = (routePrefixFlag ?? path).replace(/\/+$/, '');
  return { url, routePrefix: prefix === '' || prefix.startsWith('/') ? prefix : `/${prefix}` };
}
