import { atMostOne, readFilePath, readSecret } from '../decoder/decode-helpers';
import { readUrl } from '../decoder/url';
import type { YamlValue } from '../decoder/yaml-value';
import type { GlobalConfig } from '../model/global.model';
import { HTTP_NOTIFIER_KEYS, inheritHttpConfig } from './receiver-context';
import type { RocketchatConfig } from './rocketchat.model';

const KEYS = [
  ...HTTP_NOTIFIER_KEYS,
  'api_url',
  'token',
  'token_file',
  'token_id',
  'token_id_file',
  'channel',
  'color',
  'title',
  'title_link',
  'text',
  'fields',
  'short_fields',
  'emoji',
  'icon_url',
  'image_url',
  'thumb_url',
  'link_names',
  'actions',
];

/**
 * Decodes a `rocketchat_configs` entry with upstream's defaults (not sending resolved, the
 * `rocketchat.default.*` templates, red or green by status); the token and token id come from
 * the entry or the globals, one of which must give each.
 */
export function decodeRocketchat(value: YamlValue, global: GlobalConfig): RocketchatConfig {
  const r = value.isNull ? value.object([]) : value.object(KEYS);
  atMostOne(r, 'token');
  atMostOne(r, 'token_id');
  const own = (key: 'token' | 'token_id') => r.has(key) || r.string(`${key}_file`) !== '';
  const tokenId = own('token_id')
    ? { token_id: readSecret(r, 'token_id'), token_id_file: readFilePath(r, 'token_id_file') }
    : { token_id: global.rocketchat_token_id, token_id_file: global.rocketchat_token_id_file };
  if (!tokenId.token_id && !tokenId.token_id_file) {
    value.fail('no global Rocketchat TokenID set either inline or in a file');
  }
  const token = own('token')
    ? { token: readSecret(r, 'token'), token_file: readFilePath(r, 'token_file') }
    : { token: global.rocketchat_token, token_file: global.rocketchat_token_file };
  if (!token.token && !token.token_file) {
    value.fail('no global Rocketchat Token set either inline or in a file');
  }
  return {
    send_resolved: r.bool('send_resolved', false),
    http_config: inheritHttpConfig(r, global),
    api_url: r.has('api_url') ? readUrl(r.get('api_url')) : global.rocketchat_api_url,
    ...token,
    ...tokenId,
    channel: r.string('channel'),
    color: r.string('color', '{{ if eq .Status "firing" }}red{{ else }}green{{ end }}'),
    title: r.string('title', '{{ template "rocketchat.default.title" . }}'),
    title_link: r.string('title_link', '{{ template "rocketchat.default.titlelink" . }}'),
    text: r.string('text', '{{ template "rocketchat.default.text" . }}'),
    fields: r
      .get('fields')
      .list()
      .map((f) => {
        const o = f.object(['title', 'value', 'short']);
        return {
          title: o.string('title'),
          value: o.string('value'),
          ...(o.has('short') ? { short: o.bool('short') } : {}),
        };
      }),
    short_fields: r.bool('short_fields', false),
    emoji: r.string('emoji', '{{ template "rocketchat.default.emoji" . }}'),
    icon_url: r.string('icon_url', '{{ template "rocketchat.default.iconurl" . }}'),
    image_url: r.string('image_url'),
    thumb_url: r.string('thumb_url'),
    link_names: r.bool('link_names', false),
    actions: r
      .get('actions')
      .list()
      .map((a) => {
        const o = a.object([
          'type',
          'text',
          'url',
          'image_url',
          'is_webview',
          'webview_height_ratio',
          'msg',
          'msg_in_chat_window',
          'msg_processing_type',
        ]);
        return { text: o.string('text'), url: o.string('url'), msg: o.string('msg') };
      }),
  };
}
