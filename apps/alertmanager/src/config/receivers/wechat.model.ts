import type { HttpConfig } from '../model/http-config.model';
import type { Secret } from '../model/secret';

/** `wechat_configs` entry. Texts default to the `wechat.default.*` templates. */
export interface WechatConfig {
  send_resolved: boolean;
  http_config: HttpConfig;
  /** Own or the global `wechat_api_secret(_file)`; one of the two is set. */
  api_secret?: Secret;
  api_secret_file?: string;
  /** Own or the global `wechat_api_corp_id`. */
  corp_id: string;
  /** Own or the global `wechat_api_url`, always ending in `/`. */
  api_url: string;
  message: string;
  to_user: string;
  to_party: string;
  to_tag: string;
  agent_id: string;
  message_type: 'text' | 'markdown';
}
