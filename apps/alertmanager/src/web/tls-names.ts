import type { SecureVersion } from 'node:tls';
import type { WebTlsVersion } from './web-config.model';

/**
 * Go's names of the TLS 1.0-1.2 cipher suites `tls.CipherSuites()` lists, with OpenSSL's name
 * of each, in Go's order.
 */
export const TLS12_CIPHER_SUITES: Readonly<Record<string, string>> = {
  TLS_RSA_WITH_AES_128_CBC_SHA: 'AES128-SHA',
  TLS_RSA_WITH_AES_256_CBC_SHA: 'AES256-SHA',
  TLS_RSA_WITH_AES_128_GCM_SHA256: 'AES128-GCM-SHA256',
  TLS_RSA_WITH_AES_256_GCM_SHA384: 'AES256-GCM-SHA384',
  TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA: 'ECDHE-ECDSA-AES128-SHA',
  TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA: 'ECDHE-ECDSA-AES256-SHA',
  TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA: 'ECDHE-RSA-AES128-SHA',
  TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA: 'ECDHE-RSA-AES256-SHA',
  TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256: 'ECDHE-ECDSA-AES128-GCM-SHA256',
  TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384: 'ECDHE-ECDSA-AES256-GCM-SHA384',
  TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256: 'ECDHE-RSA-AES128-GCM-SHA256',
  TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384: 'ECDHE-RSA-AES256-GCM-SHA384',
  TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256: 'ECDHE-RSA-CHACHA20-POLY1305',
  TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256: 'ECDHE-ECDSA-CHACHA20-POLY1305',
};

/**
 * The TLS 1.3 suites. Go accepts their names in `cipher_suites` but never lets them be
 * configured: TLS 1.3 always offers all three.
 */
export const TLS13_CIPHER_SUITES: readonly string[] = [
  'TLS_AES_128_GCM_SHA256',
  'TLS_AES_256_GCM_SHA384',
  'TLS_CHACHA20_POLY1305_SHA256',
];

/** `curve_preferences` names and OpenSSL's group names. */
export const CURVES: Readonly<Record<string, string>> = {
  CurveP256: 'P-256',
  CurveP384: 'P-384',
  CurveP521: 'P-521',
  X25519: 'X25519',
};

/** `min_version`/`max_version` names and Node's. */
export const TLS_VERSIONS: Readonly<Record<WebTlsVersion, SecureVersion>> = {
  TLS10: 'TLSv1',
  TLS11: 'TLSv1.1',
  TLS12: 'TLSv1.2',
  TLS13: 'TLSv1.3',
};

/** Whether `name` is a cipher suite name Go's toolkit accepts. */
export function isKnownCipherSuite(name: string): boolean {
  return Object.hasOwn(TLS12_CIPHER_SUITES, name) || TLS13_CIPHER_SUITES.includes(name);
}

/**
 * Node's `ciphers` option for a `cipher_suites` list: the TLS 1.2 suites in the given order,
 * then the TLS 1.3 suites, which stay all enabled as in Go (Node would otherwise cap the
 * protocol at TLS 1.2 when the list names no TLS 1.3 suite). Undefined keeps Node's defaults.
 */
export function opensslCiphers(suites: readonly string[]): string | undefined {
  if (suites.length === 0) return undefined;
  const tls12 = suites.filter((s) => Object.hasOwn(TLS12_CIPHER_SUITES, s));
  return [...tls12.map((s) => TLS12_CIPHER_SUITES[s]), ...TLS13_CIPHER_SUITES].join(':');
}
