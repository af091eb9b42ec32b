import { readSecret } from '../decoder/decode-helpers';
import type { YamlValue } from '../decoder/yaml-value';
import type { GlobalConfig } from '../model/global.model';
import { HTTP_NOTIFIER_KEYS, inheritHttpConfig } from './receiver-context';
import type { SnsConfig } from './sns.model';

const KEYS = [
  ...HTTP_NOTIFIER_KEYS,
  'api_url',
  'sigv4',
  'topic_arn',
  'phone_number',
  'target_arn',
  'subject',
  'message',
  'attributes',
  'use_aws_http_client',
];

/**
 * Decodes an `sns_configs` entry with upstream's defaults and its check that exactly one of
 * `topic_arn`, `phone_number` and `target_arn` is given. Credentials come from `sigv4`'s keys or
 * the environment (`AWS_ACCESS_KEY_ID`, ...); shared profiles and assumed roles are refused by
 * name, since this server does not read them.
 */
export function decodeSns(value: YamlValue, global: GlobalConfig): SnsConfig {
  if (value.isNull) value.fail('missing sns config');
  const r = value.object(KEYS);
  const s = r
    .get('sigv4')
    .object(['region', 'access_key', 'secret_key', 'profile', 'role_arn', 'external_id']);
  const sigv4 = {
    region: s.string('region'),
    access_key: s.string('access_key'),
    secret_key: readSecret(s, 'secret_key'),
    profile: s.string('profile'),
    role_arn: s.string('role_arn'),
    external_id: s.string('external_id'),
  };
  if ((sigv4.access_key === '') !== (sigv4.secret_key === undefined)) {
    r.get('sigv4').fail(
      'must provide a AWS SigV4 Access key and Secret Key if credentials are specified in the SigV4 config',
    );
  }
  for (const key of ['profile', 'role_arn'] as const) {
    if (sigv4[key] !== '') {
      s.get(key).fail(
        `sigv4.${key} is not supported; give access_key and secret_key, or AWS_* environment variables`,
      );
    }
  }
  const targets = ['topic_arn', 'phone_number', 'target_arn'].filter((k) => r.string(k) !== '');
  if (targets.length !== 1) {
    value.fail('must provide either a Target ARN, Topic ARN, or Phone Number for SNS config');
  }
  return {
    send_resolved: r.bool('send_resolved', true),
    http_config: inheritHttpConfig(r, global),
    api_url: r.string('api_url'),
    sigv4,
    topic_arn: r.string('topic_arn'),
    phone_number: r.string('phone_number'),
    target_arn: r.string('target_arn'),
    subject: r.string('subject', '{{ template "sns.default.subject" . }}'),
    message: r.string('message', '{{ template "sns.default.message" . }}'),
    attributes: r.get('attributes').stringMap(),
    use_aws_http_client: r.bool('use_aws_http_client', false),
  };
}
