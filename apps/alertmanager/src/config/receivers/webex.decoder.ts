import { readUrl } from '../decoder/url';
import type { YamlValue } from '../decoder/yaml-value';
import type { GlobalConfig } from '../model/global.model';
import { HTTP_NOTIFIER_KEYS, inheritHttpConfig } from './receiver-context';
import type { WebexConfig } from './webex.model';

const KEYS = [...HTTP_NOTIFIER_KEYS, 'api_url', 'message', 'room_id'];

/**
 * Decodes a `webex_configs` entry. The bot token must be in the entry's own
 * `http_config.authorization`: upstream checks before the global `http_config` is inherited.
 */
export function decodeWebex(value: YamlValue, global: GlobalConfig): WebexConfig {
  if (value.isNull) value.fail('missing webex config');
  const r = value.object(KEYS);
  if (r.string('room_id') === '') value.fail('missing room_id on webex_config');
  const http = inheritHttpConfig(r, global);
  if (!r.has('http_config') || !http.authorization)
    value.fail('missing webex_configs.http_config.authorization');
  return {
    send_resolved: r.bool('send_resolved', true),
    http_config: http,
    api_url: r.has('api_url') ? readUrl(r.get('api_url')) : global.webex_api_url,
    room_id: r.string('room_id'),
    message: r.string('message', '{{ template "webex.default.message" . }}'),
  };
}
