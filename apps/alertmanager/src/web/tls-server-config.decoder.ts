import { Secret } from '../config';
import type { YamlValue } from '../config/decoder/yaml-value';
import { CURVES, isKnownCipherSuite, TLS_VERSIONS } from './tls-names';
import type { ClientAuthType, TlsServerConfig, WebTlsVersion } from './web-config.model';

const KEYS = [
  'cert',
  'key',
  'client_ca',
  'cert_file',
  'key_file',
  'client_auth_type',
  'client_ca_file',
  'cipher_suites',
  'curve_preferences',
  'min_version',
  'max_version',
  'prefer_server_cipher_suites',
  'client_allowed_sans',
];

// `RequireClientCert` is the toolkit's old name, still accepted; empty means no client cert.
const CLIENT_AUTH: Readonly<Record<string, ClientAuthType>> = {
  '': 'NoClientCert',
  NoClientCert: 'NoClientCert',
  RequestClientCert: 'RequestClientCert',
  RequireAnyClientCert: 'RequireAnyClientCert',
  RequireClientCert: 'RequireAnyClientCert',
  VerifyClientCertIfGiven: 'VerifyClientCertIfGiven',
  RequireAndVerifyClientCert: 'RequireAndVerifyClientCert',
};

/**
 * Decodes `tls_server_config` with the toolkit's defaults (TLS 1.2 to 1.3, server cipher
 * order) and its consistency rules. TLS is on as soon as a certificate, key, client CA or
 * client auth type is set, and undefined is returned when none is (plain HTTP).
 */
export function decodeTlsServerConfig(value: YamlValue): TlsServerConfig | undefined {
  const r = value.object(KEYS);
  const path = (key: string) => {
    const text = r.string(key);
    return text === '' ? undefined : value.ctx.resolvePath(text);
  };
  const cipherSuites = r.get('cipher_suites').list();
  for (const suite of cipherSuites) {
    if (!isKnownCipherSuite(suite.string())) suite.fail(`unknown cipher: ${suite.string()}`);
  }
  const curves = r.get('curve_preferences').list();
  for (const curve of curves) {
    if (!Object.hasOwn(CURVES, curve.string())) curve.fail(`unknown curve: ${curve.string()}`);
  }
  const config: TlsServerConfig = {
    cert: r.optionalString('cert'),
    key: r.has('key') && r.string('key') !== '' ? new Secret(r.string('key')) : undefined,
    client_ca: r.optionalString('client_ca'),
    cert_file: path('cert_file'),
    key_file: path('key_file'),
    client_ca_file: path('client_ca_file'),
    client_auth_type: 'NoClientCert',
    cipher_suites: cipherSuites.map((s) => s.string()),
    curve_preferences: curves.map((c) => c.string()),
    min_version: tlsVersion(r.get('min_version'), 'TLS12'),
    max_version: tlsVersion(r.get('max_version'), 'TLS13'),
    prefer_server_cipher_suites: r.bool('prefer_server_cipher_suites', true),
    client_allowed_sans: r.has('client_allowed_sans')
      ? r.get('client_allowed_sans').stringList()
      : undefined,
  };
  const authType = r.string('client_auth_type');
  const enabled =
    config.cert ||
    config.cert_file ||
    config.key ||
    config.key_file ||
    config.client_ca ||
    config.client_ca_file ||
    authType !== '';
  if (!enabled) return undefined;
  if (!config.cert && !config.cert_file) value.fail('missing one of cert or cert_file');
  if (!config.key && !config.key_file) value.fail('missing one of key or key_file');
  if (!Object.hasOwn(CLIENT_AUTH, authType)) {
    r.get('client_auth_type').fail(`invalid ClientAuth: ${authType}`);
  }
  config.client_auth_type = CLIENT_AUTH[authType];
  if ((config.client_ca || config.client_ca_file) && config.client_auth_type === 'NoClientCert') {
    value.fail("client CA's have been configured without a Client Auth Policy");
  }
  return config;
}

function tlsVersion(value: YamlValue, fallback: WebTlsVersion): WebTlsVersion {
  if (value.isNull) return fallback;
  const text = value.string();
  if (!Object.hasOwn(TLS_VERSIONS, text)) value.fail(`unknown TLS version: ${text}`);
  return text as WebTlsVersion;
}
