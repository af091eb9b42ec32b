import type { SlackConfig } from '../../config';
import { truncateRunes, type RenderText } from '../templating/notification-text';

/** Drops empty strings, as Go's `omitempty` does. */
function omitEmpty<T extends Record<string, unknown>>(object: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(object).filter(([, v]) => v !== '' && v !== undefined && v !== false),
  ) as Partial<T>;
}

/**
 * Upstream's Slack request: `channel`, `username`, `icon_emoji`, `icon_url`, `link_names` and
 * one attachment, every text rendered; keys in upstream's order, empty ones omitted as Go does
 * (`text`, `fallback`, `callback_id` and `footer` are always present).
 */
export function buildSlackPayload(
  config: SlackConfig,
  render: RenderText,
): Record<string, unknown> {
  const title = truncateRunes(render(config.title), 1024).text;
  const attachment: Record<string, unknown> = {
    ...omitEmpty({ title, title_link: render(config.title_link), pretext: render(config.pretext) }),
    text: render(config.text),
    fallback: render(config.fallback),
    callback_id: render(config.callback_id),
  };
  if (config.fields.length > 0) {
    attachment.fields = config.fields.map((f) => ({
      title: render(f.title),
      value: render(f.value),
      short: f.short ?? config.short_fields,
    }));
  }
  if (config.actions.length > 0) {
    attachment.actions = config.actions.map((a) => ({
      type: render(a.type),
      text: render(a.text),
      ...omitEmpty({
        url: render(a.url ?? ''),
        style: render(a.style ?? ''),
        name: render(a.name ?? ''),
        value: render(a.value ?? ''),
      }),
      ...(a.confirm
        ? {
            confirm: omitEmpty({
              text: render(a.confirm.text),
              title: render(a.confirm.title ?? ''),
              ok_text: render(a.confirm.ok_text ?? ''),
              dismiss_text: render(a.confirm.dismiss_text ?? ''),
            }),
          }
        : {}),
    }));
  }
  Object.assign(
    attachment,
    omitEmpty({
      image_url: render(config.image_url ?? ''),
      thumb_url: render(config.thumb_url ?? ''),
    }),
    { footer: render(config.footer) },
    omitEmpty({ color: render(config.color) }),
  );
  attachment.mrkdwn_in =
    config.mrkdwn_in.length > 0 ? config.mrkdwn_in : ['fallback', 'pretext', 'text'];
  return {
    ...omitEmpty({
      channel: render(config.channel ?? ''),
      username: render(config.username),
      icon_emoji: render(config.icon_emoji),
      icon_url: render(config.icon_url),
      link_names: config.link_names,
    }),
    attachments: [attachment],
  };
}
