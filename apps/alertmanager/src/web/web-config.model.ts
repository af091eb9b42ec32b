import type { Secret } from '../config';

/** TLS protocol versions as the web config names them. */
export type WebTlsVersion = 'TLS10' | 'TLS11' | 'TLS12' | 'TLS13';

/** The client certificate policies of Go's `tls.ClientAuthType`, by the names the file uses. */
export type ClientAuthType =
  | 'NoClientCert'
  | 'RequestClientCert'
  | 'RequireAnyClientCert'
  | 'VerifyClientCertIfGiven'
  | 'RequireAndVerifyClientCert';

/**
 * `tls_server_config` of the exporter-toolkit web config. Paths are absolute (resolved against
 * the web config's directory); a `*_file` wins over its inline twin, as upstream reads it.
 */
export interface TlsServerConfig {
  cert?: string;
  key?: Secret;
  client_ca?: string;
  cert_file?: string;
  key_file?: string;
  client_ca_file?: string;
  client_auth_type: ClientAuthType;
  /** Go cipher suite names, in the order given. */
  cipher_suites: string[];
  /** Go curve names (`CurveP256`, `X25519`, ...), in the order given. */
  curve_preferences: string[];
  min_version: WebTlsVersion;
  max_version: WebTlsVersion;
  prefer_server_cipher_suites: boolean;
  /** When set, a client certificate must carry one of these SANs. */
  client_allowed_sans?: string[];
}

/** `http_server_config`. */
export interface HttpServerConfig {
  /** Accepted as upstream; this server speaks HTTP/1.1 either way. */
  http2: boolean;
  /** Response headers, from the small set the toolkit allows. */
  headers: Record<string, string>;
}

/** `rate_limit`: a token bucket of `burst` requests refilled one per `interval_ms`; 0 is off. */
export interface RateLimitConfig {
  burst: number;
  interval_ms: number;
}

/** A parsed `--web.config.file`. `tls_server_config` is undefined when TLS is off. */
export interface WebConfig {
  tls_server_config: TlsServerConfig | undefined;
  http_server_config: HttpServerConfig;
  rate_limit: RateLimitConfig;
  /** User name to bcrypt hash; empty when basic auth is off. */
  basic_auth_users: ReadonlyMap<string, Secret>;
}
