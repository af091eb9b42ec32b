import type { DiscordConfig } from '../../config';
import { truncateRunes, type RenderText } from '../templating/notification-text';

/** Discord's limits on an embed's title and description and on the message content. */
const MAX_TITLE_RUNES = 256;
const MAX_DESCRIPTION_RUNES = 4096;
const MAX_CONTENT_RUNES = 2000;

/** Embed colours: red while firing, green once resolved. */
const FIRING_COLOR = 0x992d22;
const RESOLVED_COLOR = 0x2ecc71;

/** Whether Go's lenient `url.Parse` accepts the text (it rejects little beyond bad escapes). */
function parsesAsUrl(text: string): boolean {
  return !/%(?![0-9a-fA-F]{2})|[\x00-\x1f\x7f]/.test(text);
}

/**
 * Upstream's Discord webhook message: `content` (empty by default), one embed with the title,
 * the message as description and the status colour, and the optional `username` and
 * `avatar_url` (dropped when not a URL).
 */
export function buildDiscordPayload(
  config: DiscordConfig,
  render: RenderText,
  resolved: boolean,
): Record<string, unknown> {
  const embed = {
    title: truncateRunes(render(config.title), MAX_TITLE_RUNES).text,
    description: truncateRunes(render(config.message), MAX_DESCRIPTION_RUNES).text,
    color: resolved ? RESOLVED_COLOR : FIRING_COLOR,
  };
  const payload: Record<string, unknown> = {
    content: truncateRunes(render(config.content), MAX_CONTENT_RUNES).text,
    embeds: [embed],
  };
  if (config.username) payload.username = config.username;
  if (config.avatar_url && parsesAsUrl(config.avatar_url)) payload.avatar_url = config.avatar_url;
  return payload;
}
