import { atMostOne, readFilePath, readList, readSecret } from '../decoder/decode-helpers';
import { readUrl } from '../decoder/url';
import type { YamlValue } from '../decoder/yaml-value';
import type { GlobalConfig } from '../model/global.model';
import type { PagerdutyConfig } from './pagerduty.model';
import { HTTP_NOTIFIER_KEYS, inheritHttpConfig } from './receiver-context';

const KEYS = [
  ...HTTP_NOTIFIER_KEYS,
  'service_key',
  'service_key_file',
  'routing_key',
  'routing_key_file',
  'url',
  'client',
  'client_url',
  'description',
  'details',
  'images',
  'links',
  'source',
  'severity',
  'class',
  'component',
  'group',
  'timeout',
];

/** Detail entries added unless the config sets them (upstream HEAD's defaults). */
export const DEFAULT_PAGERDUTY_DETAILS: Readonly<Record<string, string>> = {
  firing: '{{ .Alerts.Firing | toJson }}',
  resolved: '{{ .Alerts.Resolved | toJson }}',
  num_firing: '{{ .Alerts.Firing | len }}',
  num_resolved: '{{ .Alerts.Resolved | len }}',
};

/** Decodes a `pagerduty_configs` (alias `paging_configs`) entry with its defaults. */
export function decodePagerduty(value: YamlValue, global: GlobalConfig): PagerdutyConfig {
  if (value.isNull) value.fail('missing pagerduty config');
  const r = value.object(KEYS);
  const keys = ['routing_key', 'service_key', 'routing_key_file', 'service_key_file'];
  if (!keys.some((key) => r.has(key)))
    value.fail('missing service or routing key in PagerDuty config');
  atMostOne(r, 'routing_key');
  atMostOne(r, 'service_key');
  const client = r.string('client', '{{ template "pagerduty.default.client" . }}');
  return {
    send_resolved: r.bool('send_resolved', true),
    http_config: inheritHttpConfig(r, global),
    service_key: readSecret(r, 'service_key'),
    service_key_file: readFilePath(r, 'service_key_file'),
    routing_key: readSecret(r, 'routing_key'),
    routing_key_file: readFilePath(r, 'routing_key_file'),
    url: r.has('url') ? readUrl(r.get('url')) : global.pagerduty_url,
    client,
    client_url: r.string('client_url', '{{ template "pagerduty.default.clientURL" . }}'),
    description: r.string('description', '{{ template "pagerduty.default.description" .}}'),
    details: { ...DEFAULT_PAGERDUTY_DETAILS, ...detailsOf(r.get('details')) },
    images: readList(r.get('images'), (item) =>
      item.object(['src', 'alt', 'href']).value.stringMap(),
    ),
    links: readList(r.get('links'), (item) => item.object(['href', 'text']).value.stringMap()),
    source: r.string('source') || client,
    severity: r.optionalString('severity'),
    class: r.optionalString('class'),
    component: r.optionalString('component'),
    group: r.optionalString('group'),
    timeout: r.duration('timeout', 0),
  };
}

function detailsOf(value: YamlValue): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, item] of value.entries()) out[key] = item.toJS();
  return out;
}
