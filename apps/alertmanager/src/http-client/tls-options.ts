import { readFile } from 'node:fs/promises';
import type { SecureVersion } from 'node:tls';
import type { TlsConfig, TlsVersion } from '../config';

const VERSIONS: Record<TlsVersion, SecureVersion> = {
  TLS10: 'TLSv1',
  TLS11: 'TLSv1.1',
  TLS12: 'TLSv1.2',
  TLS13: 'TLSv1.3',
};

/** The parts of Node's TLS options that `tls_config` controls. */
export interface TlsOptions {
  ca?: string;
  cert?: string;
  key?: string;
  servername?: string;
  rejectUnauthorized: boolean;
  minVersion: SecureVersion;
  maxVersion?: SecureVersion;
}

async function inlineOrFile(inline: string | undefined, file: string | undefined) {
  if (file) return readFile(file, 'utf8');
  return inline;
}

/**
 * Node TLS options from a Prometheus `tls_config`. Certificate files are read at each send, so
 * a renewed certificate is used without a reload. The minimum version defaults to TLS 1.2, as
 * Prometheus' common HTTP client.
 */
export async function tlsOptions(config: TlsConfig): Promise<TlsOptions> {
  const options: TlsOptions = {
    rejectUnauthorized: !config.insecure_skip_verify,
    minVersion: VERSIONS[config.min_version ?? 'TLS12'],
  };
  const ca = await inlineOrFile(config.ca, config.ca_file);
  const cert = await inlineOrFile(config.cert, config.cert_file);
  const key = await inlineOrFile(config.key?.reveal(), config.key_file);
  if (ca) options.ca = ca;
  if (cert) options.cert = cert;
  if (key) options.key = key;
  if (config.server_name) options.servername = config.server_name;
  if (config.max_version) options.maxVersion = VERSIONS[config.max_version];
  return options;
}
