import { readFilePath, readSecret } from '../decoder/decode-helpers';
import type { ObjectReader } from '../decoder/object-reader';
import type { YamlValue } from '../decoder/yaml-value';
import type { GlobalConfig } from '../model/global.model';
import { parseGoDuration } from '../../time/go-duration';
import type { PushoverConfig } from './pushover.model';
import { HTTP_NOTIFIER_KEYS, inheritHttpConfig } from './receiver-context';

const KEYS = [
  ...HTTP_NOTIFIER_KEYS,
  'user_key',
  'user_key_file',
  'token',
  'token_file',
  'title',
  'message',
  'url',
  'url_title',
  'device',
  'sound',
  'priority',
  'retry',
  'expire',
  'ttl',
  'html',
  'monospace',
];

/** Decodes a `pushover_configs` entry with upstream's defaults and checks, in its order. */
export function decodePushover(value: YamlValue, global: GlobalConfig): PushoverConfig {
  if (value.isNull) value.fail('missing pushover config');
  const r = value.object(KEYS);
  exactlyOne(r, 'user_key');
  exactlyOne(r, 'token');
  if (r.bool('html') && r.bool('monospace'))
    value.fail('at most one of monospace & html must be configured');
  return {
    send_resolved: r.bool('send_resolved', true),
    http_config: inheritHttpConfig(r, global),
    user_key: readSecret(r, 'user_key'),
    user_key_file: readFilePath(r, 'user_key_file'),
    token: readSecret(r, 'token'),
    token_file: readFilePath(r, 'token_file'),
    title: r.string('title', '{{ template "pushover.default.title" . }}'),
    message: r.string('message', '{{ template "pushover.default.message" . }}'),
    url: r.string('url', '{{ template "pushover.default.url" . }}'),
    url_title: r.optionalString('url_title'),
    device: r.optionalString('device'),
    sound: r.optionalString('sound'),
    priority: r.string('priority', '{{ if eq .Status "firing" }}2{{ else }}0{{ end }}'),
    retry: goDuration(r, 'retry', 60_000),
    expire: goDuration(r, 'expire', 3_600_000),
    ttl: goDuration(r, 'ttl', 0),
    html: r.bool('html'),
    monospace: r.bool('monospace'),
  };
}

/** A value given inline or in a file: one of them is required, both is an error. */
function exactlyOne(r: ObjectReader, key: string): void {
  const inline = r.string(key) !== '';
  const file = r.string(`${key}_file`) !== '';
  if (!inline && !file) r.value.fail(`one of ${key} or ${key}_file must be configured`);
  if (inline && file) r.value.fail(`at most one of ${key} & ${key}_file must be configured`);
}

/** These durations are Go's (`90s`, `1.5h`; no `d`), unlike the Prometheus ones elsewhere. */
function goDuration(r: ObjectReader, key: string, fallback: number): number {
  if (!r.has(key)) return fallback;
  const field = r.get(key);
  try {
    return parseGoDuration(field.string());
  } catch (err) {
    return field.fail((err as Error).message);
  }
}
