import type { TlsConfig } from '../model/http-config.model';
import type { Secret } from '../model/secret';

/** Mail threading (HEAD): group notifications of one alert group into a thread. */
export interface EmailThreading {
  enabled: boolean;
  thread_by_date?: 'none' | 'daily';
}

/**
 * `email_configs` entry, with the SMTP settings already inherited from `global`. Header names
 * are canonical (`Subject`, `X-Custom`), and `Subject`, `To` and `From` are always present.
 */
export interface EmailConfig {
  send_resolved: boolean;
  to: string;
  from: string;
  hello: string;
  /** `host:port`. */
  smarthost: string;
  auth_username?: string;
  auth_password?: Secret;
  auth_password_file?: string;
  auth_secret?: Secret;
  auth_secret_file?: string;
  auth_identity?: string;
  headers: Record<string, string>;
  html: string;
  text?: string;
  require_tls: boolean;
  tls_config: TlsConfig;
  /** Undefined means implicit TLS exactly when the port is 465. */
  force_implicit_tls?: boolean;
  threading?: EmailThreading;
}
