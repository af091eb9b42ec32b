import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';
import { isIP, type Socket } from 'node:net';
import type { ProxySettings } from '../config';
import type { TlsOptions } from './tls-options';

/** `Proxy-Authorization` from a proxy URL's user and password, as Go's transport sends it. */
export function proxyAuthorization(proxy: URL): Record<string, string> {
  if (!proxy.username && !proxy.password) return {};
  const user = decodeURIComponent(proxy.username);
  const password = decodeURIComponent(proxy.password);
  return {
    'Proxy-Authorization': `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
  };
}

/** The headers of a CONNECT request: `proxy_connect_header`, then the proxy's credentials. */
function connectHeaders(
  target: string,
  proxy: URL,
  settings: ProxySettings,
): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = { Host: target };
  for (const [name, values] of Object.entries(settings.proxy_connect_header))
    headers[name] = values.map((v) => v.reveal());
  return { ...headers, ...proxyAuthorization(proxy) };
}

/** Options of a request to the proxy itself (over TLS for an `https://` proxy). */
export function toProxy(proxy: URL) {
  const secure = proxy.protocol === 'https:';
  return {
    request: secure ? httpsRequest : httpRequest,
    host: proxy.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: Number(proxy.port || (secure ? 443 : 80)),
  };
}

/**
 * Opens a TLS connection to `target` through an HTTP proxy: `CONNECT host:port`, then TLS over
 * the tunnel with the receiver's `tls_config` (its CA, client certificate and server name), so
 * the proxy sees only the encrypted stream. A proxy answering anything but 2xx is an error that
 * names its status, as Go's transport reports it.
 */
export function openTunnel(
  target: URL,
  proxy: URL,
  settings: ProxySettings,
  tls: TlsOptions,
  signal?: AbortSignal,
): Promise<TLSSocket> {
  const authority = `${target.hostname}:${target.port || 443}`;
  const via = toProxy(proxy);
  return new Promise((resolve, reject) => {
    const req = via.request({
      host: via.host,
      port: via.port,
      method: 'CONNECT',
      path: authority,
      headers: connectHeaders(authority, proxy, settings),
      agent: false,
      signal,
    });
    req.once('connect', (res: IncomingMessage, socket: Socket) => {
      if ((res.statusCode ?? 0) < 200 || (res.statusCode ?? 0) > 299) {
        socket.destroy();
        reject(
          new Error(`proxy ${proxy.host} refused CONNECT: ${res.statusCode} ${res.statusMessage}`),
        );
        return;
      }
      const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
      const secured = tlsConnect({
        ...tls,
        socket,
        servername: tls.servername ?? (isIP(host) ? undefined : host),
      });
      secured.once('secureConnect', () => resolve(secured));
      secured.once('error', reject);
    });
    req.once('response', (res: IncomingMessage) => {
      res.resume();
      reject(
        new Error(`proxy ${proxy.host} refused CONNECT: ${res.statusCode} ${res.statusMessage}`),
      );
    });
    req.once('error', reject);
    req.end();
  });
}
