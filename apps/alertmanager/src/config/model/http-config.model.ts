import type { Secret } from './secret';

/** TLS versions accepted by `min_version` / `max_version`. */
export type TlsVersion = 'TLS10' | 'TLS11' | 'TLS12' | 'TLS13';

/** Prometheus common `tls_config`. File paths are resolved against the config directory. */
export interface TlsConfig {
  ca?: string;
  ca_file?: string;
  cert?: string;
  cert_file?: string;
  key?: Secret;
  key_file?: string;
  server_name?: string;
  insecure_skip_verify: boolean;
  min_version?: TlsVersion;
  max_version?: TlsVersion;
}

/** `basic_auth` of an HTTP client. */
export interface BasicAuth {
  username?: string;
  username_file?: string;
  password?: Secret;
  password_file?: string;
}

/** `authorization` header settings; `bearer_token(_file)` are folded into this, as upstream does. */
export interface Authorization {
  type: string;
  credentials?: Secret;
  credentials_file?: string;
}

/** Proxy settings shared by the HTTP client and its OAuth2 token requests. */
export interface ProxySettings {
  proxy_url?: string;
  no_proxy?: string;
  proxy_from_environment: boolean;
  proxy_connect_header: Record<string, Secret[]>;
}

/** OAuth2 client-credentials settings. */
export interface OAuth2 extends ProxySettings {
  client_id: string;
  client_secret?: Secret;
  client_secret_file?: string;
  scopes: string[];
  token_url: string;
  endpoint_params: Record<string, string>;
  tls_config: TlsConfig;
}

/** One extra request header: plain values, secret values and files to read values from. */
export interface HttpHeader {
  values: string[];
  secrets: Secret[];
  files: string[];
}

/**
 * Prometheus common `http_config`. Defaults: `follow_redirects: true`, `enable_http2: true`.
 * A receiver without its own `http_config` gets a copy of the global one (whole object).
 */
export interface HttpConfig extends ProxySettings {
  basic_auth?: BasicAuth;
  authorization?: Authorization;
  oauth2?: OAuth2;
  tls_config: TlsConfig;
  follow_redirects: boolean;
  enable_http2: boolean;
  http_headers: Record<string, HttpHeader>;
}
