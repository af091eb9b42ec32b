import { atMostOne, readFilePath, readSecret } from '../decoder/decode-helpers';
import { withTrailingSlash } from '../decoder/slash-url';
import { readUrl } from '../decoder/url';
import type { YamlValue } from '../decoder/yaml-value';
import type { GlobalConfig } from '../model/global.model';
import { HTTP_NOTIFIER_KEYS, inheritHttpConfig } from './receiver-context';
import type { VictoropsConfig } from './victorops.model';

const KEYS = [
  ...HTTP_NOTIFIER_KEYS,
  'api_key',
  'api_key_file',
  'api_url',
  'routing_key',
  'message_type',
  'state_message',
  'entity_display_name',
  'monitoring_tool',
  'custom_fields',
];

/** Payload fields a `custom_fields` entry may not replace, in upstream's order. */
const RESERVED_FIELDS = [
  'routing_key',
  'message_type',
  'state_message',
  'entity_display_name',
  'monitoring_tool',
  'entity_id',
  'entity_state',
];

/** Decodes a `victorops_configs` entry; the API URL and key fall back to the globals. */
export function decodeVictorops(value: YamlValue, global: GlobalConfig): VictoropsConfig {
  if (value.isNull) value.fail('missing victorops config');
  const r = value.object(KEYS);
  if (r.string('routing_key') === '') value.fail('missing Routing key in VictorOps config');
  atMostOne(r, 'api_key');
  const customFields = r.get('custom_fields').stringMap();
  const reserved = RESERVED_FIELDS.find((field) => field in customFields);
  if (reserved) {
    value.fail(
      `victorOps config contains custom field ${reserved} which cannot be used as it conflicts with the fixed/static fields`,
    );
  }
  // An own key (inline or file) replaces both global ones. Upstream falls back per key, so that
  // an own file next to a global inline key is ignored; that surprise is not kept.
  const own = r.has('api_key') || r.has('api_key_file');
  const apiKey = own ? readSecret(r, 'api_key') : global.victorops_api_key;
  const apiKeyFile = own ? readFilePath(r, 'api_key_file') : global.victorops_api_key_file;
  if (!apiKey && !apiKeyFile) value.fail('no global VictorOps API Key set');
  return {
    send_resolved: r.bool('send_resolved', true),
    http_config: inheritHttpConfig(r, global),
    api_key: apiKey,
    api_key_file: apiKeyFile,
    api_url: withTrailingSlash(
      r.has('api_url') ? readUrl(r.get('api_url')) : global.victorops_api_url,
    ),
    routing_key: r.string('routing_key'),
    message_type: r.string('message_type', 'CRITICAL'),
    state_message: r.string('state_message', '{{ template "victorops.default.state_message" . }}'),
    entity_display_name: r.string(
      'entity_display_name',
      '{{ template "victorops.default.entity_display_name" . }}',
    ),
    monitoring_tool: r.string(
      'monitoring_tool',
      '{{ template "victorops.default.monitoring_tool" . }}',
    ),
    custom_fields: customFields,
  };
}
