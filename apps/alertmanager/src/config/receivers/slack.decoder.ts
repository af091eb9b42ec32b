import { readFilePath } from '../decoder/decode-helpers';
import type { ObjectReader } from '../decoder/object-reader';
import { readSecretUrl } from '../decoder/url';
import type { YamlValue } from '../decoder/yaml-value';
import type { GlobalConfig } from '../model/global.model';
import { Secret } from '../model/secret';
import { HTTP_NOTIFIER_KEYS, inheritHttpConfig } from './receiver-context';
import type { SlackAction, SlackConfig, SlackField } from './slack.model';

/** Texts that default to the `slack.default.*` templates. */
const TEMPLATED_DEFAULTS = {
  username: 'username',
  color: 'color',
  title: 'title',
  title_link: 'titlelink',
  pretext: 'pretext',
  text: 'text',
  fallback: 'fallback',
  callback_id: 'callbackid',
  footer: 'footer',
  icon_emoji: 'iconemoji',
  icon_url: 'iconurl',
} as const;

const KEYS = [
  ...HTTP_NOTIFIER_KEYS,
  ...Object.keys(TEMPLATED_DEFAULTS),
  'api_url',
  'api_url_file',
  'channel',
  'message_text',
  'fields',
  'short_fields',
  'image_url',
  'thumb_url',
  'link_names',
  'mrkdwn_in',
  'actions',
  'timeout',
];

/**
 * Decodes a `slack_configs` (alias `chat_configs`) entry. Without its own URL it uses the
 * global `slack_api_url` (or `_file`); having none at all is an error.
 */
export function decodeSlack(value: YamlValue, global: GlobalConfig): SlackConfig {
  if (value.isNull) value.fail('missing slack config');
  const r = value.object(KEYS);
  if (r.has('api_url') && r.has('api_url_file')) {
    value.fail('at most one of api_url & api_url_file must be configured');
  }
  const own = r.has('api_url') || r.has('api_url_file');
  const apiUrl = own ? apiUrlOf(r) : global.slack_api_url;
  const apiUrlFile = own ? readFilePath(r, 'api_url_file') : global.slack_api_url_file;
  if (!apiUrl && !apiUrlFile) value.fail('no global Slack API URL set either inline or in a file');
  const texts = Object.fromEntries(
    Object.entries(TEMPLATED_DEFAULTS).map(([key, name]) => [
      key,
      r.string(key, `{{ template "slack.default.${name}" . }}`),
    ]),
  ) as Record<keyof typeof TEMPLATED_DEFAULTS, string>;
  const mrkdwnIn = r.get('mrkdwn_in').stringList();
  return {
    send_resolved: r.bool('send_resolved', false),
    http_config: inheritHttpConfig(r, global),
    api_url: apiUrl,
    api_url_file: apiUrlFile,
    channel: r.optionalString('channel'),
    ...texts,
    message_text: r.optionalString('message_text'),
    fields: r.get('fields').list().map(decodeField),
    short_fields: r.bool('short_fields'),
    image_url: r.optionalString('image_url'),
    thumb_url: r.optionalString('thumb_url'),
    link_names: r.bool('link_names'),
    // Upstream fills this in when sending; doing it here shows the effective value.
    mrkdwn_in: mrkdwnIn.length > 0 ? mrkdwnIn : ['fallback', 'pretext', 'text'],
    actions: r.get('actions').list().map(decodeAction),
    timeout: r.duration('timeout', 0),
  };
}

function apiUrlOf(r: ObjectReader): Secret | undefined {
  return r.has('api_url') ? new Secret(readSecretUrl(r.get('api_url'))) : undefined;
}

function decodeField(value: YamlValue): SlackField {
  const r = value.object(['title', 'value', 'short']);
  if (r.string('title') === '') value.fail('missing title in Slack field configuration');
  if (r.string('value') === '') value.fail('missing value in Slack field configuration');
  return {
    title: r.string('title'),
    value: r.string('value'),
    short: r.has('short') ? r.bool('short') : undefined,
  };
}

function decodeAction(value: YamlValue): SlackAction {
  const r = value.object(['type', 'text', 'url', 'style', 'name', 'value', 'confirm']);
  if (r.string('type') === '') value.fail('missing type in Slack action configuration');
  if (r.string('text') === '') value.fail('missing text in Slack action configuration');
  const action: SlackAction = {
    type: r.string('type'),
    text: r.string('text'),
    style: r.optionalString('style'),
  };
  // A URL makes it a link button, and upstream then drops the message-action fields.
  if (r.string('url') !== '') return { ...action, url: r.string('url') };
  if (r.string('name') === '') value.fail('missing name or url in Slack action configuration');
  const confirm = r.get('confirm');
  return {
    ...action,
    name: r.string('name'),
    value: r.optionalString('value'),
    confirm: confirm.isNull ? undefined : decodeConfirm(confirm),
  };
}

function decodeConfirm(value: YamlValue) {
  const r = value.object(['text', 'title', 'ok_text', 'dismiss_text']);
  if (r.string('text') === '') value.fail('missing text in Slack confirmation configuration');
  return {
    text: r.string('text'),
    title: r.optionalString('title'),
    ok_text: r.optionalString('ok_text'),
    dismiss_text: r.optionalString('dismiss_text'),
  };
}
