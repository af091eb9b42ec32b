import { atMostOne, readFilePath, readSecret } from '../decoder/decode-helpers';
import { withTrailingSlash } from '../decoder/slash-url';
import { readUrl } from '../decoder/url';
import type { YamlValue } from '../decoder/yaml-value';
import type { GlobalConfig } from '../model/global.model';
import { HTTP_NOTIFIER_KEYS, inheritHttpConfig } from './receiver-context';
import type { WechatConfig } from './wechat.model';

const KEYS = [
  ...HTTP_NOTIFIER_KEYS,
  'api_secret',
  'api_secret_file',
  'corp_id',
  'message',
  'api_url',
  'to_user',
  'to_party',
  'to_tag',
  'agent_id',
  'message_type',
];

const MESSAGE_TYPES = '^(text|markdown)$';

/**
 * Decodes a `wechat_configs` entry. Without a secret of its own it takes both global secret
 * keys; the corp ID and URL fall back to the globals. A null entry is an entry with every
 * default, as upstream.
 */
export function decodeWechat(value: YamlValue, global: GlobalConfig): WechatConfig {
  const r = value.object(KEYS);
  const messageType = r.string('message_type') || 'text';
  if (!new RegExp(MESSAGE_TYPES).test(messageType)) {
    r.get('message_type').fail(
      `weChat message type ${JSON.stringify(messageType)} does not match valid options ${MESSAGE_TYPES}`,
    );
  }
  atMostOne(r, 'api_secret');
  let apiSecret = readSecret(r, 'api_secret');
  let apiSecretFile = readFilePath(r, 'api_secret_file');
  if (!apiSecret && !apiSecretFile) {
    if (!global.wechat_api_secret && !global.wechat_api_secret_file)
      value.fail('no global Wechat Api Secret set either inline or in a file');
    apiSecret = global.wechat_api_secret;
    apiSecretFile = global.wechat_api_secret_file;
  }
  const corpId = r.string('corp_id') || global.wechat_api_corp_id || '';
  if (corpId === '') value.fail('no global Wechat CorpID set');
  return {
    send_resolved: r.bool('send_resolved', false),
    http_config: inheritHttpConfig(r, global),
    api_secret: apiSecret,
    api_secret_file: apiSecretFile,
    corp_id: corpId,
    api_url: withTrailingSlash(
      r.has('api_url') ? readUrl(r.get('api_url')) : global.wechat_api_url,
    ),
    message: r.string('message', '{{ template "wechat.default.message" . }}'),
    to_user: r.string('to_user', '{{ template "wechat.default.to_user" . }}'),
    to_party: r.string('to_party', '{{ template "wechat.default.to_party" . }}'),
    to_tag: r.string('to_tag', '{{ template "wechat.default.to_tag" . }}'),
    agent_id: r.string('agent_id', '{{ template "wechat.default.agent_id" . }}'),
    message_type: messageType as WechatConfig['message_type'],
  };
}
