import { isIP } from 'node:net';
import type { ProxySettings } from '../config';
import { NoProxy } from './no-proxy';

/** Reads the environment variables `proxy_from_environment` uses; the process's by default. */
export type Environment = Readonly<Record<string, string | undefined>>;

/** The first of the variables that is set and not empty, as Go's `getEnvAny`. */
function fromEnv(env: Environment, ...names: string[]): string {
  for (const name of names) {
    const value = env[name];
    if (value) return value;
  }
  return '';
}

/** A proxy address from the environment: a bare `host:port` means `http://host:port`, as Go. */
function parseProxy(value: string): URL | undefined {
  if (value === '') return undefined;
  try {
    const url = new URL(value);
    if (['http:', 'https:', 'socks5:', 'socks5h:'].includes(url.protocol)) return url;
  } catch {
    // Not absolute: try it as a host.
  }
  try {
    return new URL(`http://${value}`);
  } catch {
    return undefined;
  }
}

/** Host and port of a request URL as Go's `canonicalAddr` gives them (brackets dropped). */
function hostAndPort(url: URL): { host: string; port: string } {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return { host, port };
}

/** Whether Go's environment proxy function leaves a host alone whatever `NO_PROXY` says. */
function isLocal(host: string): boolean {
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return isIP(host) === 6 && (host === '::1' || host === '0:0:0:0:0:0:0:1');
}

/**
 * The proxy a request to `target` goes through, as prometheus/common chooses it: `proxy_url`
 * for every request when `no_proxy` is empty; with `no_proxy`, or with `proxy_from_environment`
 * (`HTTPS_PROXY`/`https_proxy` for https, `HTTP_PROXY`/`http_proxy` for http, `NO_PROXY`/
 * `no_proxy`), Go's `httpproxy` rules, which also never proxy `localhost` and loopback addresses.
 * Undefined: connect directly.
 */
export function proxyFor(
  target: URL,
  settings: ProxySettings,
  env: Environment = process.env,
): URL | undefined {
  let proxy: URL | undefined;
  let noProxy: string;
  if (settings.proxy_from_environment) {
    const secure = target.protocol === 'https:';
    proxy = parseProxy(
      secure
        ? fromEnv(env, 'HTTPS_PROXY', 'https_proxy')
        : fromEnv(env, 'HTTP_PROXY', 'http_proxy'),
    );
    noProxy = fromEnv(env, 'NO_PROXY', 'no_proxy');
  } else {
    if (!settings.proxy_url) return undefined;
    proxy = new URL(settings.proxy_url);
    if (!settings.no_proxy) return proxy;
    noProxy = settings.no_proxy;
  }
  if (!proxy) return undefined;
  const { host, port } = hostAndPort(target);
  if (isLocal(host) || new NoProxy(noProxy).bypasses(host, port)) return undefined;
  return proxy;
}
