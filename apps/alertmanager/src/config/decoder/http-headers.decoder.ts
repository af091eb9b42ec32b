import type { HttpHeader } from '../model/http-config.model';
import { Secret } from '../model/secret';
import { canonicalHeaderKey } from './header-key';
import type { YamlValue } from './yaml-value';

// Headers that the HTTP client sets itself or that would change the connection.
const RESERVED = new Set([
  'Authorization',
  'Host',
  'Content-Encoding',
  'Content-Length',
  'Content-Type',
  'User-Agent',
  'Connection',
  'Keep-Alive',
  'Proxy-Authenticate',
  'Proxy-Authorization',
  'Www-Authenticate',
  'Accept-Encoding',
  'X-Prometheus-Remote-Write-Version',
  'X-Prometheus-Remote-Read-Version',
  'X-Prometheus-Scrape-Timeout-Seconds',
  'X-Amz-Date',
  'X-Amz-Security-Token',
  'X-Amz-Content-Sha256',
]);

/** Decodes `http_headers`: per header, plain `values`, secret `secrets` and `files`. */
export function decodeHttpHeaders(value: YamlValue): Record<string, HttpHeader> {
  const out: Record<string, HttpHeader> = {};
  for (const [name, header] of value.entries()) {
    if (RESERVED.has(canonicalHeaderKey(name))) {
      header.fail(`setting header ${JSON.stringify(canonicalHeaderKey(name))} is not allowed`);
    }
    const r = header.object(['values', 'secrets', 'files']);
    out[name] = {
      values: r.get('values').stringList(),
      secrets: r
        .get('secrets')
        .stringList()
        .map((s) => new Secret(s)),
      files: r
        .get('files')
        .stringList()
        .map((f) => header.ctx.resolvePath(f)),
    };
  }
  return out;
}
