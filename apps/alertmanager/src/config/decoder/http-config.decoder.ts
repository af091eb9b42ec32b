import type { Authorization, HttpConfig, OAuth2 } from '../model/http-config.model';
import { atMostOne, readFilePath, readSecret } from './decode-helpers';
import { decodeHttpHeaders } from './http-headers.decoder';
import { decodeProxySettings, PROXY_KEYS } from './proxy.decoder';
import { decodeTlsConfig, defaultTlsConfig } from './tls-config.decoder';
import type { ObjectReader } from './object-reader';
import type { YamlValue } from './yaml-value';

/** The keys of an HTTP client config, which Prometheus inlines into scrape and alerting configs. */
export const HTTP_CONFIG_KEYS = [
  'basic_auth',
  'authorization',
  'oauth2',
  'bearer_token',
  'bearer_token_file',
  'tls_config',
  'follow_redirects',
  'enable_http2',
  'http_headers',
  ...PROXY_KEYS,
] as const;
const KEYS = HTTP_CONFIG_KEYS;

/** The HTTP client settings used when neither the receiver nor `global` sets any. */
export function defaultHttpConfig(): HttpConfig {
  return {
    tls_config: defaultTlsConfig(),
    follow_redirects: true,
    enable_http2: true,
    proxy_from_environment: false,
    proxy_connect_header: {},
    http_headers: {},
  };
}

/**
 * Decodes Prometheus common `http_config` with its validation rules. `bearer_token(_file)` is
 * turned into `authorization: {type: Bearer}` as upstream's Validate() does.
 */
export function decodeHttpConfig(value: YamlValue): HttpConfig {
  return decodeHttpConfigFields(value.object(KEYS));
}

/** The HTTP client fields of a map that holds them inline among its own (see {@link HTTP_CONFIG_KEYS}). */
export function decodeHttpConfigFields(r: ObjectReader): HttpConfig {
  const value = r.value;
  const bearer = r.has('bearer_token') || r.has('bearer_token_file');
  atMostOne(r, 'bearer_token');
  if ((r.has('basic_auth') || r.has('oauth2')) && bearer) {
    value.fail(
      'at most one of basic_auth, oauth2, bearer_token & bearer_token_file must be configured',
    );
  }
  let authorization = r.has('authorization')
    ? decodeAuthorization(r.get('authorization'))
    : undefined;
  if (authorization && bearer) {
    value.fail('authorization is not compatible with bearer_token & bearer_token_file');
  }
  if (authorization && (r.has('basic_auth') || r.has('oauth2'))) {
    value.fail('at most one of basic_auth, oauth2 & authorization must be configured');
  }
  if (r.has('oauth2') && r.has('basic_auth')) {
    value.fail('at most one of basic_auth, oauth2 & authorization must be configured');
  }
  if (bearer) {
    authorization = {
      type: 'Bearer',
      credentials: readSecret(r, 'bearer_token'),
      credentials_file: readFilePath(r, 'bearer_token_file'),
    };
  }
  return {
    basic_auth: r.has('basic_auth') ? decodeBasicAuth(r.get('basic_auth')) : undefined,
    authorization,
    oauth2: r.has('oauth2') ? decodeOAuth2(r.get('oauth2')) : undefined,
    tls_config: r.has('tls_config') ? decodeTlsConfig(r.get('tls_config')) : defaultTlsConfig(),
    follow_redirects: r.bool('follow_redirects', true),
    enable_http2: r.bool('enable_http2', true),
    ...decodeProxySettings(r),
    http_headers: decodeHttpHeaders(r.get('http_headers')),
  };
}

function decodeBasicAuth(value: YamlValue) {
  const r = value.object(['username', 'username_file', 'password', 'password_file']);
  if (r.has('username') && r.has('username_file')) {
    value.fail(
      'at most one of basic_auth username, username_file & username_ref must be configured',
    );
  }
  if (r.has('password') && r.has('password_file')) {
    value.fail(
      'at most one of basic_auth password, password_file & password_ref must be configured',
    );
  }
  return {
    username: r.optionalString('username'),
    username_file: readFilePath(r, 'username_file'),
    password: readSecret(r, 'password'),
    password_file: readFilePath(r, 'password_file'),
  };
}

function decodeAuthorization(value: YamlValue): Authorization {
  const r = value.object(['type', 'credentials', 'credentials_file']);
  if (r.has('credentials') && r.has('credentials_file')) {
    value.fail('at most one of authorization credentials & credentials_file must be configured');
  }
  const type = r.string('type').trim() || 'Bearer';
  if (type.toLowerCase() === 'basic') {
    value.fail('authorization type cannot be set to "basic", use "basic_auth" instead');
  }
  return {
    type,
    credentials: readSecret(r, 'credentials'),
    credentials_file: readFilePath(r, 'credentials_file'),
  };
}

function decodeOAuth2(value: YamlValue): OAuth2 {
  const r: ObjectReader = value.object([
    'client_id',
    'client_secret',
    'client_secret_file',
    'scopes',
    'token_url',
    'endpoint_params',
    'tls_config',
    ...PROXY_KEYS,
  ]);
  if (r.string('client_id') === '') value.fail('oauth2 client_id must be configured');
  if (r.string('token_url') === '') value.fail('oauth2 token_url must be configured');
  if (r.has('client_secret') && r.has('client_secret_file')) {
    value.fail(
      'at most one of oauth2 client_secret, client_secret_file & client_secret_ref must be configured using grant-type=client_credentials',
    );
  }
  return {
    client_id: r.string('client_id'),
    client_secret: readSecret(r, 'client_secret'),
    client_secret_file: readFilePath(r, 'client_secret_file'),
    scopes: r.get('scopes').stringList(),
    token_url: r.string('token_url'),
    endpoint_params: r.get('endpoint_params').stringMap(),
    tls_config: r.has('tls_config') ? decodeTlsConfig(r.get('tls_config')) : defaultTlsConfig(),
    ...decodeProxySettings(r),
  };
}
