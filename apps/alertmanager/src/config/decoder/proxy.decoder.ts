import type { ProxySettings } from '../model/http-config.model';
import { Secret } from '../model/secret';
import type { ObjectReader } from './object-reader';
import { readUrlLoose } from './url';

/** Keys of the proxy settings, shared by `http_config` and `oauth2`. */
export const PROXY_KEYS = [
  'proxy_url',
  'no_proxy',
  'proxy_from_environment',
  'proxy_connect_header',
] as const;

/** Decodes the proxy settings with upstream's consistency rules. */
export function decodeProxySettings(r: ObjectReader): ProxySettings {
  const proxyUrl = r.has('proxy_url') ? readUrlLoose(r.get('proxy_url')) : undefined;
  const fromEnv = r.bool('proxy_from_environment');
  const headers: Record<string, Secret[]> = {};
  for (const [name, value] of r.get('proxy_connect_header').entries()) {
    headers[name] = value.stringList().map((v) => new Secret(v));
  }
  if (Object.keys(headers).length > 0 && !fromEnv && !proxyUrl) {
    r.value.fail(
      'if proxy_connect_header is configured, proxy_url or proxy_from_environment must also be configured',
    );
  }
  if (fromEnv && proxyUrl) {
    r.value.fail('if proxy_from_environment is configured, proxy_url must not be configured');
  }
  if (fromEnv && r.has('no_proxy')) {
    r.value.fail('if proxy_from_environment is configured, no_proxy must not be configured');
  }
  if (!proxyUrl && r.has('no_proxy')) {
    r.value.fail('if no_proxy is configured, proxy_url must also be configured');
  }
  return {
    proxy_url: proxyUrl,
    no_proxy: r.optionalString('no_proxy'),
    proxy_from_environment: fromEnv,
    proxy_connect_header: headers,
  };
}
