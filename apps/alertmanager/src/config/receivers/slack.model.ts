import type { HttpConfig } from '../model/http-config.model';
import type { Secret } from '../model/secret';

/** A confirmation dialog on a Slack message button. */
export interface SlackConfirmationField {
  text: string;
  title?: string;
  ok_text?: string;
  dismiss_text?: string;
}

/** A button on a Slack message: a link (`url`) or a message action (`name`, `value`). */
export interface SlackAction {
  type: string;
  text: string;
  url?: string;
  style?: string;
  name?: string;
  value?: string;
  confirm?: SlackConfirmationField;
}

/** A field of a Slack attachment; `short` undefined means the config's `short_fields`. */
export interface SlackField {
  title: string;
  value: string;
  short?: boolean;
}

/** `slack_configs` entry (alias `chat_configs`). Texts default to the `slack.default.*` templates. */
export interface SlackConfig {
  send_resolved: boolean;
  http_config: HttpConfig;
  /** Falls back to the global `slack_api_url`; one of this or `api_url_file` is set. */
  api_url?: Secret;
  api_url_file?: string;
  channel?: string;
  username: string;
  color: string;
  title: string;
  title_link: string;
  pretext: string;
  text: string;
  message_text?: string;
  fields: SlackField[];
  short_fields: boolean;
  footer: string;
  fallback: string;
  callback_id: string;
  icon_emoji: string;
  icon_url: string;
  image_url?: string;
  thumb_url?: string;
  link_names: boolean;
  mrkdwn_in: string[];
  actions: SlackAction[];
  /** Milliseconds; 0 means no timeout of its own. */
  timeout: number;
}
