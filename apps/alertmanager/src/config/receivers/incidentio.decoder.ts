import { readFilePath, readSecret } from '../decoder/decode-helpers';
import { readSecretUrl } from '../decoder/url';
import type { YamlValue } from '../decoder/yaml-value';
import type { GlobalConfig } from '../model/global.model';
import { Secret } from '../model/secret';
import type { IncidentioConfig } from './incidentio.model';
import { HTTP_NOTIFIER_KEYS, inheritHttpConfig } from './receiver-context';

const KEYS = [
  ...HTTP_NOTIFIER_KEYS,
  'url',
  'url_file',
  'alert_source_token',
  'alert_source_token_file',
  'max_alerts',
  'timeout',
];

/** Decodes an `incidentio_configs` entry with upstream's checks and their messages. */
export function decodeIncidentio(value: YamlValue, global: GlobalConfig): IncidentioConfig {
  if (value.isNull) value.fail('missing incidentio config');
  const r = value.object(KEYS);
  const url = r.has('url');
  const urlFile = r.string('url_file') !== '';
  if (!url && !urlFile) value.fail('one of url or url_file must be configured');
  if (url && urlFile) value.fail('at most one of url & url_file must be configured');
  const token = r.string('alert_source_token') !== '';
  const tokenFile = r.string('alert_source_token_file') !== '';
  if (token && tokenFile) {
    value.fail('at most one of alert_source_token & alert_source_token_file must be configured');
  }
  const ownHttp = r.has('http_config');
  const http = inheritHttpConfig(r, global);
  if (ownHttp && http.authorization && (token || tokenFile)) {
    value.fail(
      'cannot specify alert_source_token or alert_source_token_file when using http_config.authorization',
    );
  }
  if (ownHttp && !http.authorization && !token && !tokenFile) {
    value.fail(
      'at least one of alert_source_token, alert_source_token_file or http_config.authorization must be configured',
    );
  }
  // A uint64 upstream: Go's YAML decoder refuses a negative or fractional one.
  const maxAlerts = r.has('max_alerts') ? r.get('max_alerts').number('integer') : 0;
  if (maxAlerts < 0) {
    r.get('max_alerts').fail(`cannot unmarshal !!int \`${maxAlerts}\` into uint64`);
  }
  return {
    send_resolved: r.bool('send_resolved', true),
    http_config: http,
    url: url ? new Secret(readSecretUrl(r.get('url'))) : undefined,
    url_file: readFilePath(r, 'url_file'),
    alert_source_token: readSecret(r, 'alert_source_token'),
    alert_source_token_file: readFilePath(r, 'alert_source_token_file'),
    max_alerts: maxAlerts,
    timeout: r.duration('timeout', 0),
  };
}
