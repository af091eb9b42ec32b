import type {
  HttpConfig,
  OAuth2,
  ProxySettings,
  TlsConfig,
  TlsVersion,
} from '../model/http-config.model';
import { SECRET_TOKEN, type Secret } from '../model/secret';
import { goMap, GoYamlMap, type GoYamlValue } from './go-yaml-writer';

type Entries = Array<readonly [string, GoYamlValue]>;

/**
 * TLS versions as Prometheus 2.42 prints them: as Go's numbers (`771` for TLS 1.2), since its
 * marshaller that names them is not used for a field that is not a pointer.
 */
const TLS_VERSION_NUMBERS: Readonly<Record<TlsVersion, number>> = {
  TLS10: 0x0301,
  TLS11: 0x0302,
  TLS12: 0x0303,
  TLS13: 0x0304,
};

/**
 * The HTTP client fields Prometheus inlines into a scrape, Alertmanager or remote-write config,
 * in the order Prometheus 2.42 prints them (its `HTTPClientConfig`); fields it does not know yet
 * (`username_file`, `no_proxy`, `proxy_from_environment`, inline TLS `ca`/`cert`/`key`,
 * `http_headers`) print only when set, where later versions print them. Secrets print as
 * `<secret>`, and so does a password in a proxy URL.
 */
export function httpClientEntries(http: HttpConfig): Entries {
  const out: Entries = [];
  const auth = http.basic_auth;
  if (auth) {
    const fields: Entries = [];
    if (auth.username !== undefined || auth.username_file === undefined) {
      fields.push(['username', auth.username ?? '']);
    }
    if (auth.username_file) fields.push(['username_file', auth.username_file]);
    if (auth.password) fields.push(['password', secret(auth.password)]);
    if (auth.password_file) fields.push(['password_file', auth.password_file]);
    out.push(['basic_auth', new GoYamlMap(fields)]);
  }
  const authorization = http.authorization;
  if (authorization) {
    const fields: Entries = [];
    if (authorization.type) fields.push(['type', authorization.type]);
    if (authorization.credentials) fields.push(['credentials', secret(authorization.credentials)]);
    if (authorization.credentials_file) {
      fields.push(['credentials_file', authorization.credentials_file]);
    }
    out.push(['authorization', new GoYamlMap(fields)]);
  }
  if (http.oauth2) out.push(['oauth2', oauth2(http.oauth2)]);
  out.push(...proxyEntries(http));
  const tls = tlsConfig(http.tls_config);
  if (tls) out.push(['tls_config', tls]);
  out.push(['follow_redirects', http.follow_redirects], ['enable_http2', http.enable_http2]);
  const headers = Object.entries(http.http_headers);
  if (headers.length > 0) {
    const byName: Record<string, GoYamlValue> = {};
    for (const [name, header] of headers) {
      const fields: Entries = [];
      if (header.values.length > 0) fields.push(['values', header.values]);
      if (header.secrets.length > 0) fields.push(['secrets', header.secrets.map(secret)]);
      if (header.files.length > 0) fields.push(['files', header.files]);
      byName[name] = new GoYamlMap(fields);
    }
    out.push(['http_headers', goMap(byName)]);
  }
  return out;
}

/** A URL as Prometheus prints it (`url.Redacted()`): a password shows as `xxxxx`. */
export function redactedUrl(url: string): string {
  return url.replace(/^([a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^/@:]*:)[^/@]*@/, '$1xxxxx@');
}

/** Every secret prints as the token, whatever it holds: the value never leaves the model. */
function secret(_value: Secret): string {
  return SECRET_TOKEN;
}

function oauth2(config: OAuth2): GoYamlMap {
  const fields: Entries = [
    ['client_id', config.client_id],
    // Prometheus 2.42 prints both, unset ones as null and "".
    ['client_secret', config.client_secret ? secret(config.client_secret) : null],
    ['client_secret_file', config.client_secret_file ?? ''],
  ];
  if (config.scopes.length > 0) fields.push(['scopes', config.scopes]);
  fields.push(['token_url', config.token_url]);
  if (Object.keys(config.endpoint_params).length > 0) {
    fields.push(['endpoint_params', goMap(config.endpoint_params)]);
  }
  fields.push(...proxyEntries(config));
  const tls = tlsConfig(config.tls_config);
  if (tls) fields.push(['tls_config', tls]);
  return new GoYamlMap(fields);
}

function proxyEntries(proxy: ProxySettings): Entries {
  const out: Entries = [];
  if (proxy.proxy_url) out.push(['proxy_url', redactedUrl(proxy.proxy_url)]);
  if (proxy.no_proxy) out.push(['no_proxy', proxy.no_proxy]);
  if (proxy.proxy_from_environment) out.push(['proxy_from_environment', true]);
  const connect = Object.entries(proxy.proxy_connect_header);
  if (connect.length > 0) {
    const byName: Record<string, GoYamlValue> = {};
    for (const [name, values] of connect) byName[name] = values.map(secret);
    out.push(['proxy_connect_header', goMap(byName)]);
  }
  return out;
}

/** The TLS settings, or none when all are unset (yaml.v2 leaves out an all-zero struct). */
function tlsConfig(tls: TlsConfig): GoYamlMap | undefined {
  const fields: Entries = [];
  const text: Array<[string, string | undefined]> = [
    ['ca', tls.ca],
    ['ca_file', tls.ca_file],
    ['cert', tls.cert],
    ['cert_file', tls.cert_file],
    ['key', tls.key ? secret(tls.key) : undefined],
    ['key_file', tls.key_file],
    ['server_name', tls.server_name],
  ];
  for (const [key, value] of text) if (value) fields.push([key, value]);
  if (fields.length === 0 && !tls.insecure_skip_verify && !tls.min_version && !tls.max_version) {
    return undefined;
  }
  fields.push(['insecure_skip_verify', tls.insecure_skip_verify]);
  if (tls.min_version) fields.push(['min_version', TLS_VERSION_NUMBERS[tls.min_version]]);
  if (tls.max_version) fields.push(['max_version', TLS_VERSION_NUMBERS[tls.max_version]]);
  return new GoYamlMap(fields);
}
