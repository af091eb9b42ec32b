import type { MattermostAttachmentConfig, MattermostConfig } from '../../config';
import { truncateRunes, type RenderText } from '../templating/notification-text';

/** Mattermost takes messages of at most this many characters. */
const MAX_TEXT_RUNES = 16383;

const PRIORITIES = new Set(['urgent', 'important', 'standard']);

/** Drops empty values, as Go's `omitempty` does for the request's fields. */
function compact(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(fields).filter(([, v]) => v !== '' && v !== undefined && v !== null),
  );
}

function attachment(a: MattermostAttachmentConfig, render: RenderText, text: string) {
  return compact({
    fallback: render(a.fallback),
    color: render(a.color),
    pretext: render(a.pretext),
    text,
    author_name: render(a.author_name),
    author_link: render(a.author_link),
    author_icon: render(a.author_icon),
    title: render(a.title),
    title_link: render(a.title_link),
    fields:
      a.fields.length > 0
        ? a.fields.map((f) =>
            compact({ title: render(f.title), value: render(f.value), short: f.short }),
          )
        : undefined,
    thumb_url: render(a.thumb_url),
    footer: render(a.footer),
    footer_icon: render(a.footer_icon),
    image_url: render(a.image_url),
  });
}

/**
 * Upstream's Mattermost webhook message: channel, username and icons; without `attachments`, one
 * attachment carrying the text, title, colour and the other fields; with them, the configured
 * attachments and the text at the top level (cut to 16,383 characters). A priority other than
 * urgent, important or standard becomes standard; `requested_ack` needs important or urgent,
 * `persistent_notifications` needs urgent, as upstream corrects them.
 */
export function buildMattermostPayload(
  config: MattermostConfig,
  render: RenderText,
): Record<string, unknown> {
  const text = render(config.text);
  const withAttachments = config.attachments.length > 0;
  const payload = compact({
    text: withAttachments ? truncateRunes(text, MAX_TEXT_RUNES).text : '',
    channel: render(config.channel),
    username: render(config.username),
    icon_url: render(config.icon_url),
    icon_emoji: render(config.icon_emoji),
    attachments: withAttachments
      ? config.attachments.map((a) => attachment(a, render, render(a.text)))
      : [attachment({ ...config, text: '' }, render, text)],
    type: render(config.type),
  });
  if (config.props && config.props.card !== '') payload.props = { card: render(config.props.card) };
  if (config.priority && config.priority.priority !== '') {
    const rendered = render(config.priority.priority).toLowerCase();
    const priority = PRIORITIES.has(rendered) ? rendered : 'standard';
    payload.priority = compact({
      priority,
      requested_ack: config.priority.requested_ack && priority !== 'standard' ? true : undefined,
      persistent_notifications:
        config.priority.persistent_notifications && priority === 'urgent' ? true : undefined,
    });
  }
  return payload;
}
