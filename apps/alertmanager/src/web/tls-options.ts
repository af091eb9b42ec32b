import { readFileSync } from 'node:fs';
import { createSecureContext, type SecureContextOptions } from 'node:tls';
import { FILE_ERRORS } from '../config/file-errors';
import { CURVES, opensslCiphers, TLS_VERSIONS } from './tls-names';
import type { TlsServerConfig } from './web-config.model';

/** Reads a file's bytes; injectable so tests can count reads. */
export type ReadFile = (path: string) => Buffer;

/**
 * What an HTTPS server needs for one `tls_server_config`: the secure context options, whether
 * to ask for a client certificate and let OpenSSL refuse unverified ones, and the checks Node
 * cannot make during the handshake, made when it has completed.
 */
export interface TlsServerSetup {
  context: SecureContextOptions;
  requestCert: boolean;
  rejectUnauthorized: boolean;
  /** `RequireAnyClientCert`: a certificate must be given, verified or not. */
  requireCert: boolean;
  /** `VerifyClientCertIfGiven`: a given certificate must verify. */
  verifyIfGiven: boolean;
  /** `client_allowed_sans`, checked whenever a certificate was asked for. */
  allowedSans: readonly string[] | undefined;
}

/**
 * Reads the certificate, key and client CAs of a `tls_server_config` and builds Node's TLS
 * options from it, refusing what the toolkit refuses with its messages (a file that cannot be
 * read, a key that does not match its certificate). Go's RequireAnyClientCert and
 * VerifyClientCertIfGiven have no OpenSSL mode: the certificate is requested without being
 * enforced, and the connection is checked once the handshake is done.
 */
export function tlsServerSetup(
  config: TlsServerConfig,
  read: ReadFile = readFileSync,
): TlsServerSetup {
  const cert = config.cert_file ? readOrFail(read, config.cert_file, 'cert_file') : config.cert;
  const key = config.key_file
    ? readOrFail(read, config.key_file, 'key_file')
    : config.key?.reveal();
  const ca = config.client_ca_file ? readCa(read, config.client_ca_file) : config.client_ca;
  const context: SecureContextOptions = {
    cert,
    key,
    minVersion: TLS_VERSIONS[config.min_version],
    maxVersion: TLS_VERSIONS[config.max_version],
    honorCipherOrder: config.prefer_server_cipher_suites,
  };
  if (ca !== undefined) context.ca = ca;
  const ciphers = opensslCiphers(config.cipher_suites);
  if (ciphers) context.ciphers = ciphers;
  if (config.curve_preferences.length > 0) {
    context.ecdhCurve = config.curve_preferences.map((c) => CURVES[c]).join(':');
  }
  try {
    createSecureContext(context);
  } catch (error) {
    throw new Error(`failed to load X509KeyPair: ${keyPairProblem(error as Error)}`);
  }
  const auth = config.client_auth_type;
  return {
    context,
    requestCert: auth !== 'NoClientCert',
    rejectUnauthorized: auth === 'RequireAndVerifyClientCert',
    requireCert: auth === 'RequireAnyClientCert',
    verifyIfGiven: auth === 'VerifyClientCertIfGiven',
    allowedSans: config.client_allowed_sans,
  };
}

function readOrFail(read: ReadFile, path: string, key: string): Buffer {
  try {
    return read(path);
  } catch (error) {
    throw new Error(`failed to read ${key} (${path}): ${osError(path, error)}`);
  }
}

function readCa(read: ReadFile, path: string): Buffer {
  try {
    return read(path);
  } catch (error) {
    throw new Error(osError(path, error));
  }
}

/** Go's `open <path>: <reason>`. */
function osError(path: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code ?? '';
  return `open ${path}: ${FILE_ERRORS[code] ?? (error as Error).message}`;
}

/** Go's words for the usual OpenSSL complaints about a certificate and key pair. */
function keyPairProblem(error: Error): string {
  if (/key values mismatch/.test(error.message)) {
    return 'tls: private key does not match public key';
  }
  if (/no start line|bad base64 decode/.test(error.message)) {
    return 'tls: failed to find any PEM data in certificate or key input';
  }
  return error.message;
}
