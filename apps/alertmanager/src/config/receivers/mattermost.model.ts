import type { HttpConfig } from '../model/http-config.model';
import type { Secret } from '../model/secret';

/** One field of a Mattermost attachment; `title` and `value` are required templates. */
export interface MattermostField {
  title: string;
  value: string;
  short?: boolean;
}

/** The attachment fields a message or a configured attachment carries (all templates). */
export interface MattermostAttachmentConfig {
  fallback: string;
  color: string;
  pretext: string;
  text: string;
  author_name: string;
  author_link: string;
  author_icon: string;
  title: string;
  title_link: string;
  fields: MattermostField[];
  thumb_url: string;
  footer: string;
  footer_icon: string;
  image_url: string;
}

/** `mattermost_configs` entry (upstream 0.33+): an incoming webhook message. */
export interface MattermostConfig extends Omit<MattermostAttachmentConfig, 'text'> {
  send_resolved: boolean;
  http_config: HttpConfig;
  /** Its own or the global `mattermost_webhook_url(_file)`. */
  webhook_url?: Secret;
  webhook_url_file?: string;
  channel: string;
  username: string;
  text: string;
  icon_url: string;
  icon_emoji: string;
  /** When given, these replace the one attachment built from the fields above. */
  attachments: MattermostAttachmentConfig[];
  type: string;
  props?: { card: string };
  priority?: { priority: string; requested_ack: boolean; persistent_notifications: boolean };
}
