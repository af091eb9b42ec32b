import type { HttpConfig } from '../model/http-config.model';
import type { Secret } from '../model/secret';

/** `discord_configs` entry. Title and message default to the `discord.default.*` templates. */
export interface DiscordConfig {
  send_resolved: boolean;
  http_config: HttpConfig;
  /** Exactly one of `webhook_url` and `webhook_url_file`. */
  webhook_url?: Secret;
  webhook_url_file?: string;
  /** Text above the embed (a template); empty by default. */
  content: string;
  title: string;
  message: string;
  username?: string;
  avatar_url?: string;
}
