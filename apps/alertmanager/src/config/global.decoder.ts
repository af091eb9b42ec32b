import { atMostOne, readFilePath, readSecret } from './decoder/decode-helpers';
import { defaultHttpConfig, decodeHttpConfig } from './decoder/http-config.decoder';
import type { ObjectReader } from './decoder/object-reader';
import { decodeTlsConfig, defaultTlsConfig } from './decoder/tls-config.decoder';
import { readSecretUrl, readUrl } from './decoder/url';
import type { YamlValue } from './decoder/yaml-value';
import { validateHostPort } from './host-port';
import type { GlobalConfig } from './model/global.model';
import { Secret } from './model/secret';

/** Upstream's global defaults (`DefaultGlobalConfig`). */
export const GLOBAL_DEFAULT_URLS = {
  pagerduty_url: 'https://events.pagerduty.com/v2/enqueue',
  opsgenie_api_url: 'https://api.opsgenie.com/',
  wechat_api_url: 'https://qyapi.weixin.qq.com/cgi-bin/',
  victorops_api_url: 'https://alert.victorops.com/integrations/generic/20131114/alert/',
  telegram_api_url: 'https://api.telegram.org',
  webex_api_url: 'https://webexapis.com/v1/messages',
  rocketchat_api_url: 'https://open.rocket.chat/',
} as const;

const SECRET_FILE_KEYS = [
  'smtp_auth_password',
  'smtp_auth_secret',
  'slack_api_url',
  'opsgenie_api_key',
  'wechat_api_secret',
  'victorops_api_key',
  'telegram_bot_token',
  'rocketchat_token',
  'rocketchat_token_id',
  'mattermost_webhook_url',
] as const;

const KEYS = [
  'resolve_timeout',
  'http_config',
  'smtp_from',
  'smtp_smarthost',
  'smtp_hello',
  'smtp_auth_username',
  'smtp_auth_identity',
  'smtp_require_tls',
  'smtp_tls_config',
  'smtp_force_implicit_tls',
  'wechat_api_corp_id',
  'jira_api_url',
  'chat_api_url',
  'chat_api_url_file',
  ...Object.keys(GLOBAL_DEFAULT_URLS),
  ...SECRET_FILE_KEYS.flatMap((key) => [key, `${key}_file`]),
];

/** The global section of a file without one. */
export function defaultGlobalConfig(): GlobalConfig {
  return {
    resolve_timeout: 5 * 60_000,
    http_config: defaultHttpConfig(),
    smtp_hello: 'localhost',
    smtp_require_tls: true,
    smtp_tls_config: defaultTlsConfig(),
    ...GLOBAL_DEFAULT_URLS,
  };
}

/**
 * Decodes `global`. `chat_api_url(_file)` is our alias of `slack_api_url(_file)`; setting both
 * names is an error.
 */
export function decodeGlobal(value: YamlValue): GlobalConfig {
  const r = value.object(KEYS);
  const slackKey = r.aliased('slack_api_url', 'chat_api_url');
  const slackFileKey = r.aliased('slack_api_url_file', 'chat_api_url_file');
  if (r.has(slackKey) && r.has(slackFileKey)) {
    value.fail(`at most one of ${slackKey} & ${slackFileKey} must be configured`);
  }
  for (const key of SECRET_FILE_KEYS) if (key !== 'slack_api_url') atMostOne(r, key);
  const defaults = defaultGlobalConfig();
  const url = (key: keyof typeof GLOBAL_DEFAULT_URLS) =>
    r.has(key) ? readUrl(r.get(key)) : defaults[key];
  return {
    resolve_timeout: r.duration('resolve_timeout', defaults.resolve_timeout),
    http_config: r.has('http_config')
      ? decodeHttpConfig(r.get('http_config'))
      : defaults.http_config,
    smtp_from: r.optionalString('smtp_from'),
    smtp_smarthost: validateHostPort(r.get('smtp_smarthost')),
    smtp_hello: r.string('smtp_hello') || defaults.smtp_hello,
    smtp_auth_username: r.optionalString('smtp_auth_username'),
    smtp_auth_password: readSecret(r, 'smtp_auth_password'),
    smtp_auth_password_file: readFilePath(r, 'smtp_auth_password_file'),
    smtp_auth_secret: readSecret(r, 'smtp_auth_secret'),
    smtp_auth_secret_file: readFilePath(r, 'smtp_auth_secret_file'),
    smtp_auth_identity: r.optionalString('smtp_auth_identity'),
    smtp_require_tls: r.bool('smtp_require_tls', true),
    smtp_tls_config: r.has('smtp_tls_config')
      ? decodeTlsConfig(r.get('smtp_tls_config'))
      : defaults.smtp_tls_config,
    smtp_force_implicit_tls: r.has('smtp_force_implicit_tls')
      ? r.bool('smtp_force_implicit_tls')
      : undefined,
    slack_api_url: secretUrl(r, slackKey),
    slack_api_url_file: readFilePath(r, slackFileKey),
    pagerduty_url: url('pagerduty_url'),
    opsgenie_api_url: url('opsgenie_api_url'),
    opsgenie_api_key: readSecret(r, 'opsgenie_api_key'),
    opsgenie_api_key_file: readFilePath(r, 'opsgenie_api_key_file'),
    wechat_api_url: url('wechat_api_url'),
    wechat_api_secret: readSecret(r, 'wechat_api_secret'),
    wechat_api_secret_file: readFilePath(r, 'wechat_api_secret_file'),
    wechat_api_corp_id: r.optionalString('wechat_api_corp_id'),
    victorops_api_url: url('victorops_api_url'),
    victorops_api_key: readSecret(r, 'victorops_api_key'),
    victorops_api_key_file: readFilePath(r, 'victorops_api_key_file'),
    telegram_api_url: url('telegram_api_url'),
    telegram_bot_token: readSecret(r, 'telegram_bot_token'),
    telegram_bot_token_file: readFilePath(r, 'telegram_bot_token_file'),
    webex_api_url: url('webex_api_url'),
    jira_api_url: r.has('jira_api_url') ? readUrl(r.get('jira_api_url')) : undefined,
    rocketchat_api_url: url('rocketchat_api_url'),
    rocketchat_token: readSecret(r, 'rocketchat_token'),
    rocketchat_token_file: readFilePath(r, 'rocketchat_token_file'),
    rocketchat_token_id: readSecret(r, 'rocketchat_token_id'),
    rocketchat_token_id_file: readFilePath(r, 'rocketchat_token_id_file'),
    mattermost_webhook_url: secretUrl(r, 'mattermost_webhook_url'),
    mattermost_webhook_url_file: readFilePath(r, 'mattermost_webhook_url_file'),
  };
}

function secretUrl(r: ObjectReader, key: string): Secret | undefined {
  return r.has(key) ? new Secret(readSecretUrl(r.get(key))) : undefined;
}
