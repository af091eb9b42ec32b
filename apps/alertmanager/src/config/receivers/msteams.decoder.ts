import { readFilePath } from '../decoder/decode-helpers';
import type { ObjectReader } from '../decoder/object-reader';
import { readSecretUrl } from '../decoder/url';
import type { YamlValue } from '../decoder/yaml-value';
import type { GlobalConfig } from '../model/global.model';
import { Secret } from '../model/secret';
import type { MsteamsConfig, MsteamsV2Config } from './msteams.model';
import { HTTP_NOTIFIER_KEYS, inheritHttpConfig } from './receiver-context';

/** The webhook URL of a Teams entry, inline or in a file: exactly one, as upstream checks. */
function webhook(value: YamlValue, r: ObjectReader) {
  const inline = r.has('webhook_url');
  const file = r.string('webhook_url_file') !== '';
  if (!inline && !file) value.fail('one of webhook_url or webhook_url_file must be configured');
  if (inline && file)
    value.fail('at most one of webhook_url & webhook_url_file must be configured');
  return {
    webhook_url: inline ? new Secret(readSecretUrl(r.get('webhook_url'))) : undefined,
    webhook_url_file: readFilePath(r, 'webhook_url_file'),
  };
}

const URL_KEYS = [...HTTP_NOTIFIER_KEYS, 'webhook_url', 'webhook_url_file'];

/** Decodes an `msteams_configs` entry with upstream's `msteams.default.*` templates. */
export function decodeMsteams(value: YamlValue, global: GlobalConfig): MsteamsConfig {
  if (value.isNull) value.fail('missing msteams config');
  const r = value.object([...URL_KEYS, 'title', 'summary', 'text']);
  return {
    send_resolved: r.bool('send_resolved', true),
    http_config: inheritHttpConfig(r, global),
    ...webhook(value, r),
    title: r.string('title', '{{ template "msteams.default.title" . }}'),
    summary: r.string('summary', '{{ template "msteams.default.summary" . }}'),
    text: r.string('text', '{{ template "msteams.default.text" . }}'),
  };
}

/** Decodes an `msteamsv2_configs` entry with upstream's `msteamsv2.default.*` templates. */
export function decodeMsteamsV2(value: YamlValue, global: GlobalConfig): MsteamsV2Config {
  if (value.isNull) value.fail('missing msteamsv2 config');
  const r = value.object([...URL_KEYS, 'title', 'text']);
  return {
    send_resolved: r.bool('send_resolved', true),
    http_config: inheritHttpConfig(r, global),
    ...webhook(value, r),
    title: r.string('title', '{{ template "msteamsv2.default.title" . }}'),
    text: r.string('text', '{{ template "msteamsv2.default.text" . }}'),
  };
}
