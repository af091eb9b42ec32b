import type { HttpConfig } from '../model/http-config.model';

/**
 * `webex_configs` entry. The bot token is the `http_config.authorization` it must have; the
 * message defaults to `webex.default.message`.
 */
export interface WebexConfig {
  send_resolved: boolean;
  http_config: HttpConfig;
  /** Own or the global `webex_api_url`. */
  api_url: string;
  /** A template. */
  room_id: string;
  message: string;
}
