import { atMostOne, readFilePath, readSecret } from '../decoder/decode-helpers';
import { withTrailingSlash } from '../decoder/slash-url';
import { readUrl } from '../decoder/url';
import type { YamlValue } from '../decoder/yaml-value';
import type { GlobalConfig } from '../model/global.model';
import type { OpsgenieConfig, OpsgenieResponder } from './opsgenie.model';
import { HTTP_NOTIFIER_KEYS, inheritHttpConfig } from './receiver-context';

const KEYS = [
  ...HTTP_NOTIFIER_KEYS,
  'api_key',
  'api_key_file',
  'api_url',
  'message',
  'description',
  'source',
  'details',
  'entity',
  'responders',
  'actions',
  'tags',
  'note',
  'priority',
  'update_alerts',
];

const RESPONDER_TYPES = '^(team|teams|user|escalation|schedule)$';

/**
 * Decodes an `opsgenie_configs` entry. The API URL and key fall back to the globals; having no
 * key at all is an error. A null entry is an entry with every default, as upstream.
 */
export function decodeOpsgenie(value: YamlValue, global: GlobalConfig): OpsgenieConfig {
  const r = value.object(KEYS);
  atMostOne(r, 'api_key');
  const responders = r.get('responders').list().map(decodeResponder);
  // An own key (inline or file) replaces both global ones. Upstream falls back per key, so that
  // an own file next to a global inline key is ignored; that surprise is not kept.
  const own = r.has('api_key') || r.has('api_key_file');
  const apiKey = own ? readSecret(r, 'api_key') : global.opsgenie_api_key;
  const apiKeyFile = own ? readFilePath(r, 'api_key_file') : global.opsgenie_api_key_file;
  if (!apiKey && !apiKeyFile)
    value.fail('no global OpsGenie API Key set either inline or in a file');
  return {
    send_resolved: r.bool('send_resolved', true),
    http_config: inheritHttpConfig(r, global),
    api_key: apiKey,
    api_key_file: apiKeyFile,
    api_url: withTrailingSlash(
      r.has('api_url') ? readUrl(r.get('api_url')) : global.opsgenie_api_url,
    ),
    message: r.string('message', '{{ template "opsgenie.default.message" . }}'),
    description: r.string('description', '{{ template "opsgenie.default.description" . }}'),
    source: r.string('source', '{{ template "opsgenie.default.source" . }}'),
    details: r.get('details').stringMap(),
    entity: r.optionalString('entity'),
    responders,
    actions: r.optionalString('actions'),
    tags: r.optionalString('tags'),
    note: r.optionalString('note'),
    priority: r.optionalString('priority'),
    update_alerts: r.bool('update_alerts'),
  };
}

function decodeResponder(value: YamlValue): OpsgenieResponder {
  const r = value.object(['id', 'name', 'username', 'type']);
  const responder = {
    id: r.optionalString('id'),
    name: r.optionalString('name'),
    username: r.optionalString('username'),
    type: r.string('type'),
  };
  // Upstream prints the responder as a Go struct: `{id name username type}`.
  const shown = (type: string) =>
    `{${[responder.id, responder.name, responder.username, type].map((v) => v ?? '').join(' ')}}`;
  if (!responder.id && !responder.username && !responder.name) {
    value.fail(
      `opsGenieConfig responder ${shown(responder.type)} has to have at least one of id, username or name specified`,
    );
  }
  // A templated type is checked when sending; upstream checks the lower-cased text but keeps
  // the configured spelling.
  const lower = responder.type.toLowerCase();
  if (!responder.type.includes('{{') && !new RegExp(RESPONDER_TYPES).test(lower)) {
    value.fail(
      `opsGenieConfig responder ${shown(lower)} type does not match valid options ${RESPONDER_TYPES}`,
    );
  }
  return responder;
}
