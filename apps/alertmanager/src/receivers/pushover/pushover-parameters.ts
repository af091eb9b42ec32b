import type { PushoverConfig } from '../../config';
import { truncateRunes, type RenderText } from '../templating/notification-text';

/** Pushover's limits, applied before sending as upstream does. */
const MAX_TITLE_RUNES = 250;
const MAX_MESSAGE_RUNES = 1024;
const MAX_URL_RUNES = 512;

/** The renderers and secrets one message is built from. */
export interface PushoverInput {
  config: PushoverConfig;
  text: RenderText;
  html: RenderText;
  token: string;
  userKey: string;
}

/**
 * Upstream's Pushover message parameters (sent in the query string). The message is rendered
 * as HTML when `html` is set, trimmed, and `(no details)` when empty. `device` is sent only
 * when configured, as Alertmanager 0.25 (which has no such field) sends none.
 */
export function pushoverParameters(input: PushoverInput): Record<string, string> {
  const { config, text } = input;
  const params: Record<string, string> = {
    token: text(input.token),
    user: text(input.userKey),
    title: truncateRunes(text(config.title), MAX_TITLE_RUNES).text,
  };
  if (config.html) params.html = '1';
  const rendered = config.html ? input.html(config.message) : text(config.message);
  if (config.monospace) params.monospace = '1';
  params.message = truncateRunes(rendered, MAX_MESSAGE_RUNES).text.trim() || '(no details)';
  params.url = truncateRunes(text(config.url), MAX_URL_RUNES).text;
  params.url_title = text(config.url_title ?? '');
  params.priority = text(config.priority);
  params.retry = String(Math.trunc(config.retry / 1000));
  params.expire = String(Math.trunc(config.expire / 1000));
  // Only a configured device is named; without one Pushover sends to all the user's devices.
  if (config.device) params.device = text(config.device);
  params.sound = text(config.sound ?? '');
  const ttl = Math.trunc(config.ttl / 1000);
  if (ttl > 0) params.ttl = String(ttl);
  return params;
}
