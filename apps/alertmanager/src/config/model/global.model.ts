import type { HttpConfig, TlsConfig } from './http-config.model';
import type { Secret } from './secret';

/**
 * The `global` section: defaults that receivers inherit. URLs are validated strings; keys for
 * integrations this server does not deliver to are still accepted so existing files load.
 */
export interface GlobalConfig {
  /** Milliseconds after which an alert without `endsAt` that stopped arriving is resolved. */
  resolve_timeout: number;
  http_config: HttpConfig;
  smtp_from?: string;
  /** `host:port`. */
  smtp_smarthost?: string;
  smtp_hello: string;
  smtp_auth_username?: string;
  smtp_auth_password?: Secret;
  smtp_auth_password_file?: string;
  smtp_auth_secret?: Secret;
  smtp_auth_secret_file?: string;
  smtp_auth_identity?: string;
  smtp_require_tls: boolean;
  smtp_tls_config: TlsConfig;
  /** Undefined means implicit TLS exactly when the port is 465. */
  smtp_force_implicit_tls?: boolean;
  slack_api_url?: Secret;
  slack_api_url_file?: string;
  pagerduty_url: string;
  opsgenie_api_url: string;
  opsgenie_api_key?: Secret;
  opsgenie_api_key_file?: string;
  wechat_api_url: string;
  wechat_api_secret?: Secret;
  wechat_api_secret_file?: string;
  wechat_api_corp_id?: string;
  victorops_api_url: string;
  victorops_api_key?: Secret;
  victorops_api_key_file?: string;
  telegram_api_url: string;
  telegram_bot_token?: Secret;
  telegram_bot_token_file?: string;
  webex_api_url: string;
  jira_api_url?: string;
  rocketchat_api_url: string;
  rocketchat_token?: Secret;
  rocketchat_token_file?: string;
  rocketchat_token_id?: Secret;
  rocketchat_token_id_file?: string;
  mattermost_webhook_url?: Secret;
  mattermost_webhook_url_file?: string;
}
