import type { HttpConfig } from '../model/http-config.model';
import type { Secret } from '../model/secret';

/** The message formats the Bot API accepts (`''` sends plain text). */
export type TelegramParseMode = '' | 'Markdown' | 'MarkdownV2' | 'HTML';

/** `telegram_configs` entry. The message defaults to `telegram.default.message`. */
export interface TelegramConfig {
  send_resolved: boolean;
  http_config: HttpConfig;
  /** Own or the global `telegram_api_url`. */
  api_url: string;
  /** Own or the global `telegram_bot_token(_file)`; one of the two is set. */
  bot_token?: Secret;
  bot_token_file?: string;
  /** Exactly one of `chat_id` (non-zero) and `chat_id_file`. */
  chat_id?: number;
  chat_id_file?: string;
  /** 0 means none (a forum topic otherwise). */
  message_thread_id: number;
  message: string;
  disable_notifications: boolean;
  parse_mode: TelegramParseMode;
}
