import type { HttpConfig } from '../model/http-config.model';
import type { Secret } from '../model/secret';

/** A field of the message's attachment; `short` falls back to the entry's `short_fields`. */
export interface RocketchatField {
  title: string;
  value: string;
  short?: boolean;
}

/** A button of the attachment (Rocket.Chat knows only buttons). */
export interface RocketchatAction {
  text: string;
  url: string;
  msg: string;
}

/** `rocketchat_configs` entry: `chat.postMessage` with one attachment. Texts are templates. */
export interface RocketchatConfig {
  send_resolved: boolean;
  http_config: HttpConfig;
  /** Its own or the global `rocketchat_api_url`. */
  api_url: string;
  token?: Secret;
  token_file?: string;
  token_id?: Secret;
  token_id_file?: string;
  channel: string;
  color: string;
  title: string;
  title_link: string;
  text: string;
  fields: RocketchatField[];
  short_fields: boolean;
  emoji: string;
  icon_url: string;
  image_url: string;
  thumb_url: string;
  link_names: boolean;
  actions: RocketchatAction[];
}
