import type { TlsConfig, TlsVersion } from '../model/http-config.model';
import { readFilePath, readSecret } from './decode-helpers';
import type { YamlValue } from './yaml-value';

const TLS_VERSIONS: readonly TlsVersion[] = ['TLS10', 'TLS11', 'TLS12', 'TLS13'];

const KEYS = [
  'ca',
  'ca_file',
  'cert',
  'cert_file',
  'key',
  'key_file',
  'server_name',
  'insecure_skip_verify',
  'min_version',
  'max_version',
] as const;

/** An empty `tls_config`, the default everywhere one is optional. */
export function defaultTlsConfig(): TlsConfig {
  return { insecure_skip_verify: false };
}

/** Decodes Prometheus common `tls_config` with its "at most one of" rules. */
export function decodeTlsConfig(value: YamlValue): TlsConfig {
  const r = value.object(KEYS);
  const pairs: Array<[string, string, string]> = [
    ['ca', 'ca_file', 'at most one of ca, ca_file & ca_ref must be configured'],
    ['cert', 'cert_file', 'at most one of cert, cert_file & cert_ref must be configured'],
    ['key', 'key_file', 'at most one of key and key_file must be configured'],
  ];
  for (const [inline, file, reason] of pairs) if (r.has(inline) && r.has(file)) value.fail(reason);
  const usingCert = r.has('cert') || r.has('cert_file');
  const usingKey = r.has('key') || r.has('key_file');
  if (usingCert && !usingKey) {
    value.fail(
      'exactly one of key or key_file must be configured when a client certificate is configured',
    );
  }
  if (usingKey && !usingCert) {
    value.fail(
      'exactly one of cert or cert_file must be configured when a client key is configured',
    );
  }
  return {
    ca: r.optionalString('ca'),
    ca_file: readFilePath(r, 'ca_file'),
    cert: r.optionalString('cert'),
    cert_file: readFilePath(r, 'cert_file'),
    key: readSecret(r, 'key'),
    key_file: readFilePath(r, 'key_file'),
    server_name: r.optionalString('server_name'),
    insecure_skip_verify: r.bool('insecure_skip_verify'),
    min_version: tlsVersion(r.get('min_version')),
    max_version: tlsVersion(r.get('max_version')),
  };
}

function tlsVersion(value: YamlValue): TlsVersion | undefined {
  const text = value.string();
  if (text === '') return undefined;
  if (!TLS_VERSIONS.includes(text as TlsVersion)) value.fail(`unknown TLS version: ${text}`);
  return text as TlsVersion;
}
