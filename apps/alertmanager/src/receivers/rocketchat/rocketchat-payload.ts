import type { RocketchatConfig } from '../../config';
import { truncateRunes, type RenderText } from '../templating/notification-text';

/** Rocket.Chat cuts longer attachment titles. */
const MAX_TITLE_RUNES = 1024;

/** Drops empty texts, as Go's `omitempty` does for the message's fields. */
function compact(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== '' && v !== undefined));
}

/**
 * Upstream's `chat.postMessage` body: channel, emoji and avatar, and one attachment with the
 * title (cut to 1,024 characters), link, text, images, colour, fields (`short` from the field or
 * `short_fields`) and buttons.
 */
export function buildRocketchatPayload(
  config: RocketchatConfig,
  render: RenderText,
): Record<string, unknown> {
  const attachment = compact({
    title: truncateRunes(render(config.title), MAX_TITLE_RUNES).text,
    title_link: render(config.title_link),
    text: render(config.text),
    image_url: render(config.image_url),
    thumb_url: render(config.thumb_url),
    color: render(config.color),
    fields:
      config.fields.length > 0
        ? config.fields.map((f) => ({
            short: f.short ?? config.short_fields,
            ...compact({ title: render(f.title), value: render(f.value) }),
          }))
        : undefined,
    actions:
      config.actions.length > 0
        ? config.actions.map((a) => ({
            ...compact({ type: 'button', text: render(a.text), url: render(a.url) }),
            is_webview: false,
            ...compact({ msg: render(a.msg) }),
            msg_in_chat_window: false,
          }))
        : undefined,
  });
  return compact({
    channel: render(config.channel),
    emoji: render(config.emoji),
    avatar: render(config.icon_url),
    attachments: [attachment],
  });
}
