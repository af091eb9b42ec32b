import { readFilePath } from '../decoder/decode-helpers';
import { readSecretUrl } from '../decoder/url';
import type { YamlValue } from '../decoder/yaml-value';
import type { GlobalConfig } from '../model/global.model';
import { Secret } from '../model/secret';
import type { DiscordConfig } from './discord.model';
import { HTTP_NOTIFIER_KEYS, inheritHttpConfig } from './receiver-context';

const KEYS = [
  ...HTTP_NOTIFIER_KEYS,
  'webhook_url',
  'webhook_url_file',
  'content',
  'title',
  'message',
  'username',
  'avatar_url',
];

/** Decodes a `discord_configs` entry: a webhook URL (inline or in a file) is required. */
export function decodeDiscord(value: YamlValue, global: GlobalConfig): DiscordConfig {
  if (value.isNull) value.fail('missing discord config');
  const r = value.object(KEYS);
  const inline = r.has('webhook_url');
  const file = r.string('webhook_url_file') !== '';
  if (!inline && !file) value.fail('one of webhook_url or webhook_url_file must be configured');
  if (inline && file)
    value.fail('at most one of webhook_url & webhook_url_file must be configured');
  return {
    send_resolved: r.bool('send_resolved', true),
    http_config: inheritHttpConfig(r, global),
    webhook_url: inline ? new Secret(readSecretUrl(r.get('webhook_url'))) : undefined,
    webhook_url_file: readFilePath(r, 'webhook_url_file'),
    content: r.string('content'),
    title: r.string('title', '{{ template "discord.default.title" . }}'),
    message: r.string('message', '{{ template "discord.default.message" . }}'),
    username: r.optionalString('username'),
    avatar_url: r.optionalString('avatar_url'),
  };
}
