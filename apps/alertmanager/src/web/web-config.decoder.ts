import { Secret } from '../config';
import { parseYamlRoot } from '../config/decoder/yaml-document';
import type { YamlValue } from '../config/decoder/yaml-value';
import { parseGoDuration } from '../time/go-duration';
import { bcryptCost } from './bcrypt-hash';
import { headerProblem } from './security-headers';
import { decodeTlsServerConfig } from './tls-server-config.decoder';
import type { HttpServerConfig, RateLimitConfig, WebConfig } from './web-config.model';

const KEYS = ['tls_server_config', 'http_server_config', 'rate_limit', 'basic_auth_users'];

// Go's net/http refuses to serve HTTP/2 over TLS 1.2 without one of these (RFC 7540, 9.2.2).
const HTTP2_REQUIRED = [
  'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256',
  'TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256',
];

/** When the file is read: at startup upstream checks more than on each later reload. */
export type WebConfigStage = 'startup' | 'reload';

/**
 * Parses an exporter-toolkit web config (`--web.config.file`) strictly: unknown keys, unknown
 * cipher/curve/version names and headers outside the toolkit's list are errors, which name the
 * file, line and key. At `startup` it also checks, as the toolkit does only then, that every
 * password is a well-formed bcrypt hash and that an HTTP/2 server keeps a cipher HTTP/2
 * requires. Certificate files are not read here. Throws a `ConfigError`.
 */
export function parseWebConfig(text: string, file: string, stage: WebConfigStage): WebConfig {
  const root = parseYamlRoot(text, file);
  const r = root.object(KEYS);
  const tls = decodeTlsServerConfig(r.get('tls_server_config'));
  const http = decodeHttpServerConfig(r.get('http_server_config'));
  if (stage === 'startup' && tls && http.http2 && tls.min_version !== 'TLS13') {
    const suites = tls.cipher_suites;
    if (suites.length > 0 && !suites.some((s) => HTTP2_REQUIRED.includes(s))) {
      r.get('tls_server_config').fail(
        `http2: TLSConfig.CipherSuites is missing an HTTP/2-required AES_128_GCM_SHA256 cipher (need at least one of ${HTTP2_REQUIRED.join(' or ')})`,
      );
    }
  }
  return {
    tls_server_config: tls,
    http_server_config: http,
    rate_limit: decodeRateLimit(r.get('rate_limit')),
    basic_auth_users: decodeUsers(r.get('basic_auth_users'), stage),
  };
}

function decodeHttpServerConfig(value: YamlValue): HttpServerConfig {
  const r = value.object(['http2', 'headers']);
  const headers: Record<string, string> = {};
  for (const [name, header] of r.get('headers').entries()) {
    headers[name] = header.string();
    const problem = headerProblem(name, headers[name]);
    if (problem) header.fail(problem);
  }
  return { http2: r.bool('http2', true), headers };
}

function decodeRateLimit(value: YamlValue): RateLimitConfig {
  const r = value.object(['burst', 'interval']);
  const interval = r.get('interval');
  let ms = 0;
  if (typeof interval.toJS() === 'number') {
    // yaml.v2 reads a bare integer into a time.Duration as nanoseconds.
    ms = interval.number('integer') / 1e6;
  } else if (!interval.isNull) {
    try {
      ms = parseGoDuration(interval.string());
    } catch (error) {
      interval.fail((error as Error).message);
    }
  }
  return { burst: r.get('burst').number('integer'), interval_ms: ms };
}

function decodeUsers(value: YamlValue, stage: WebConfigStage): Map<string, Secret> {
  const users = new Map<string, Secret>();
  for (const [user, hash] of value.entries()) {
    const text = hash.string();
    if (stage === 'startup') {
      try {
        bcryptCost(text);
      } catch (error) {
        hash.fail((error as Error).message);
      }
    }
    users.set(user, new Secret(text));
  }
  return users;
}
