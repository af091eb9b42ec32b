import type { HttpConfig } from '../model/http-config.model';
import type { Secret } from '../model/secret';

/** `msteams_configs` entry: an Office 365 connector card (title, summary, text are templates). */
export interface MsteamsConfig {
  send_resolved: boolean;
  http_config: HttpConfig;
  /** Exactly one of `webhook_url` and `webhook_url_file`. */
  webhook_url?: Secret;
  webhook_url_file?: string;
  title: string;
  summary: string;
  text: string;
}

/** `msteamsv2_configs` entry: an Adaptive Card for a Teams workflow (title and text are templates). */
export interface MsteamsV2Config {
  send_resolved: boolean;
  http_config: HttpConfig;
  /** Exactly one of `webhook_url` and `webhook_url_file`. */
  webhook_url?: Secret;
  webhook_url_file?: string;
  title: string;
  text: string;
}
