import { readFilePath } from '../decoder/decode-helpers';
import { isTemplated, readSecretUrl } from '../decoder/url';
import type { YamlValue } from '../decoder/yaml-value';
import type { GlobalConfig } from '../model/global.model';
import { Secret } from '../model/secret';
import { HTTP_NOTIFIER_KEYS, inheritHttpConfig } from './receiver-context';
import type { WebhookConfig } from './webhook.model';

const KEYS = [...HTTP_NOTIFIER_KEYS, 'url', 'url_file', 'max_alerts', 'timeout', 'payload'];

/** Decodes a `webhook_configs` entry; a templated URL is checked only when it is sent. */
export function decodeWebhook(value: YamlValue, global: GlobalConfig): WebhookConfig {
  if (value.isNull) value.fail('missing webhook config');
  const r = value.object(KEYS);
  if (!r.has('url') && !r.has('url_file')) value.fail('one of url or url_file must be configured');
  if (r.has('url') && r.has('url_file'))
    value.fail('at most one of url & url_file must be configured');
  const url = r.get('url');
  const text = url.string();
  return {
    send_resolved: r.bool('send_resolved', true),
    http_config: inheritHttpConfig(r, global),
    url: text === '' ? undefined : new Secret(isTemplated(text) ? text : readSecretUrl(url)),
    url_file: readFilePath(r, 'url_file'),
    max_alerts: r.get('max_alerts').number('integer'),
    timeout: r.duration('timeout', 0),
    // Upstream 0.32+'s custom body: any YAML value, its strings (and keys) templates.
    ...(r.has('payload') ? { payload: r.get('payload').toJS() } : {}),
  };
}
