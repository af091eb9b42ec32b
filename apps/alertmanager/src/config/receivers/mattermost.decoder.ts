import { readFilePath } from '../decoder/decode-helpers';
import type { ObjectReader } from '../decoder/object-reader';
import { readSecretUrl } from '../decoder/url';
import type { YamlValue } from '../decoder/yaml-value';
import type { GlobalConfig } from '../model/global.model';
import { Secret } from '../model/secret';
import type {
  MattermostAttachmentConfig,
  MattermostConfig,
  MattermostField,
} from './mattermost.model';
import { HTTP_NOTIFIER_KEYS, inheritHttpConfig } from './receiver-context';

const ATTACHMENT_KEYS = [
  'fallback',
  'color',
  'pretext',
  'text',
  'author_name',
  'author_link',
  'author_icon',
  'title',
  'title_link',
  'fields',
  'thumb_url',
  'footer',
  'footer_icon',
  'image_url',
] as const;

const KEYS = [
  ...HTTP_NOTIFIER_KEYS,
  ...ATTACHMENT_KEYS,
  'webhook_url',
  'webhook_url_file',
  'channel',
  'username',
  'icon_url',
  'icon_emoji',
  'attachments',
  'type',
  'props',
  'priority',
];

/** Upstream's defaults: the `mattermost.default.*` templates. */
const DEFAULTS: Partial<Record<string, string>> = {
  username: '{{ template "mattermost.default.username" . }}',
  color: '{{ template "mattermost.default.color" . }}',
  text: '{{ template "mattermost.default.text" . }}',
  title: '{{ template "mattermost.default.title" . }}',
  title_link: '{{ template "mattermost.default.titlelink" . }}',
  fallback: '{{ template "mattermost.default.fallback" . }}',
};

function decodeField(value: YamlValue): MattermostField {
  const r = value.object(['title', 'value', 'short']);
  const title = r.string('title');
  const text = r.string('value');
  if (title === '') value.fail('missing title in Mattermost field configuration');
  if (text === '') value.fail('missing value in Mattermost field configuration');
  return { title, value: text, ...(r.has('short') ? { short: r.bool('short') } : {}) };
}

function attachmentFields(r: ObjectReader, defaults: boolean): MattermostAttachmentConfig {
  const text = (key: string) => r.string(key, defaults ? (DEFAULTS[key] ?? '') : '');
  return {
    fallback: text('fallback'),
    color: text('color'),
    pretext: text('pretext'),
    text: text('text'),
    author_name: text('author_name'),
    author_link: text('author_link'),
    author_icon: text('author_icon'),
    title: text('title'),
    title_link: text('title_link'),
    fields: r.get('fields').list().map(decodeField),
    thumb_url: text('thumb_url'),
    footer: text('footer'),
    footer_icon: text('footer_icon'),
    image_url: text('image_url'),
  };
}

/**
 * Decodes a `mattermost_configs` entry with upstream's defaults: its webhook URL (inline or in a
 * file) or the global `mattermost_webhook_url(_file)`, one of which is required.
 */
export function decodeMattermost(value: YamlValue, global: GlobalConfig): MattermostConfig {
  if (value.isNull) value.fail('missing mattermost config');
  const r = value.object(KEYS);
  const inline = r.has('webhook_url');
  const file = r.string('webhook_url_file') !== '';
  if (inline && file)
    value.fail('at most one of webhook_url & webhook_url_file must be configured');
  const fromGlobal = !inline && !file;
  if (fromGlobal && !global.mattermost_webhook_url && !global.mattermost_webhook_url_file) {
    value.fail('missing webhook_url or webhook_url_file on mattermost_config');
  }
  const priority = r.has('priority')
    ? r.get('priority').object(['priority', 'requested_ack', 'persistent_notifications'])
    : undefined;
  return {
    ...attachmentFields(r, true),
    send_resolved: r.bool('send_resolved', true),
    http_config: inheritHttpConfig(r, global),
    webhook_url: fromGlobal
      ? global.mattermost_webhook_url
      : inline
        ? new Secret(readSecretUrl(r.get('webhook_url')))
        : undefined,
    webhook_url_file: fromGlobal
      ? global.mattermost_webhook_url_file
      : readFilePath(r, 'webhook_url_file'),
    channel: r.string('channel'),
    username: r.string('username', DEFAULTS.username),
    icon_url: r.string('icon_url'),
    icon_emoji: r.string('icon_emoji'),
    attachments: r
      .get('attachments')
      .list()
      .map((a) => attachmentFields(a.object(ATTACHMENT_KEYS), false)),
    type: r.string('type'),
    ...(r.has('props') ? { props: { card: r.get('props').object(['card']).string('card') } } : {}),
    ...(priority
      ? {
          priority: {
            priority: priority.string('priority'),
            requested_ack: priority.bool('requested_ack'),
            persistent_notifications: priority.bool('persistent_notifications'),
          },
        }
      : {}),
  };
}
