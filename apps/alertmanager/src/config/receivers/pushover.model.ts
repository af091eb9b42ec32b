import type { HttpConfig } from '../model/http-config.model';
import type { Secret } from '../model/secret';

/** `pushover_configs` entry. Texts default to the `pushover.default.*` templates. */
export interface PushoverConfig {
  send_resolved: boolean;
  http_config: HttpConfig;
  /** Exactly one of `user_key` and `user_key_file`. */
  user_key?: Secret;
  user_key_file?: string;
  /** Exactly one of `token` and `token_file`. */
  token?: Secret;
  token_file?: string;
  title: string;
  message: string;
  url: string;
  url_title?: string;
  device?: string;
  sound?: string;
  /** A template; by default 2 (emergency) when firing, else 0. */
  priority: string;
  /** Milliseconds (a Go duration in the file). */
  retry: number;
  /** Milliseconds (a Go duration in the file). */
  expire: number;
  /** Milliseconds; 0 sends no `ttl`. */
  ttl: number;
  /** Render `message` as HTML and send `html=1`. */
  html: boolean;
  monospace: boolean;
}
