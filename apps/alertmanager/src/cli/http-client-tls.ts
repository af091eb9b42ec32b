import { readFile } from 'node:fs/promises';
import { createSecureContext, type ConnectionOptions, type SecureVersion } from 'node:tls';
import type { TlsConfig, TlsVersion } from '../config';
import { openError } from './http-client-credentials';

const VERSIONS: Record<TlsVersion, SecureVersion> = {
  TLS10: 'TLSv1',
  TLS11: 'TLSv1.1',
  TLS12: 'TLSv1.2',
  TLS13: 'TLSv1.3',
};

/** An inline PEM or the content of its `*_file`, with how upstream describes its source. */
async function pem(inline: string | undefined, file: string | undefined, context: string) {
  if (!file) return inline === undefined ? undefined : { text: inline, source: 'inline' };
  try {
    return { text: await readFile(file, 'utf8'), source: `file ${file}` };
  } catch (error) {
    throw new Error(`${context}: unable to read file ${file}: ${openError(file, error)}`);
  }
}

/**
 * Node's TLS options for a client `tls_config`, read and checked once, when the client is made,
 * as Prometheus' common HTTP client does, with its messages: a CA file without certificates, a
 * client certificate that does not go with its key, versions in the wrong order. The minimum
 * version defaults to TLS 1.2, as in Go.
 */
export async function clientTlsOptions(config: TlsConfig): Promise<ConnectionOptions> {
  const order = Object.keys(VERSIONS);
  const { min_version: min, max_version: max } = config;
  if (min && max && order.indexOf(max) < order.indexOf(min)) {
    throw new Error(
      'tls_config.max_version must be greater than or equal to tls_config.min_version if both are specified',
    );
  }
  const options: ConnectionOptions = {
    rejectUnauthorized: !config.insecure_skip_verify,
    minVersion: VERSIONS[config.min_version ?? 'TLS12'],
  };
  if (config.max_version) options.maxVersion = VERSIONS[config.max_version];
  if (config.server_name) options.servername = config.server_name;
  const ca = await pem(config.ca, config.ca_file, 'unable to read CA cert');
  if (ca) {
    if (!ca.text.includes('-----BEGIN CERTIFICATE-----')) {
      throw new Error(`unable to use specified CA cert ${ca.source}`);
    }
    options.ca = ca.text;
  }
  const cert = await pem(config.cert, config.cert_file, 'unable to read specified client cert');
  const key = await pem(
    config.key?.reveal(),
    config.key_file,
    'unable to read specified client key',
  );
  if (cert && key) {
    try {
      createSecureContext({ cert: cert.text, key: key.text });
    } catch (error) {
      throw new Error(
        `unable to use specified client cert (${cert.source}) & key (${key.source}): ${(error as Error).message}`,
      );
    }
    options.cert = cert.text;
    options.key = key.text;
  }
  return options;
}
