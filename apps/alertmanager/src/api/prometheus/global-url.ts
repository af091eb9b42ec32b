/** How upstream recognises a target on its own machine (`LocalhostRepresentations`). */
const LOCALHOST = new Set(['127.0.0.1', 'localhost', '::1']);

/**
 * Upstream's `getGlobalURL`: a target URL as it is reached from elsewhere. When the host is
 * `localhost`, `127.0.0.1` or `::1`, it is replaced by this machine's hostname, the port, path and
 * query kept; any other URL, and one without a port, is shown as it is.
 */
export function globalUrl(url: string, hostname: string): string {
  const match = /^([a-zA-Z][a-zA-Z0-9+.-]*:\/\/)([^/?#]*)(.*)$/s.exec(url);
  if (!match) return url;
  const [, scheme, authority, rest] = match;
  const at = authority.lastIndexOf('@') + 1;
  const hostPort = splitHostPort(authority.slice(at));
  if (hostPort === undefined || !LOCALHOST.has(hostPort.host)) return url;
  return `${scheme}${authority.slice(0, at)}${hostname}:${hostPort.port}${rest}`;
}

/** Go's `net.SplitHostPort`: undefined where it fails (no port, a bare IPv6 address). */
function splitHostPort(hostPort: string): { host: string; port: string } | undefined {
  if (hostPort.startsWith('[')) {
    const end = hostPort.indexOf(']');
    if (end === -1 || hostPort[end + 1] !== ':') return undefined;
    const port = hostPort.slice(end + 2);
    return port.includes(':') ? undefined : { host: hostPort.slice(1, end), port };
  }
  const colon = hostPort.lastIndexOf(':');
  if (colon === -1) return undefined;
  const host = hostPort.slice(0, colon);
  return host.includes(':') ? undefined : { host, port: hostPort.slice(colon + 1) };
}
