import { canonicalHeaderKey } from '../decoder/header-key';
import { decodeHttpConfigFields, HTTP_CONFIG_KEYS } from '../decoder/http-config.decoder';
import type { ObjectReader } from '../decoder/object-reader';
import { readUrl } from '../decoder/url';
import type { YamlValue } from '../decoder/yaml-value';
import type { RemoteWriteConfig, RemoteWriteQueueConfig } from './prometheus-config.model';
import { rawRelabelConfigs } from './raw-relabel-configs';

/** Upstream's `DefaultQueueConfig` (2.42). */
export const REMOTE_WRITE_QUEUE_DEFAULTS: RemoteWriteQueueConfig = {
  capacity: 2500,
  maxShards: 200,
  minShards: 1,
  maxSamplesPerSend: 500,
  batchSendDeadlineMs: 5_000,
  minBackoffMs: 30,
  maxBackoffMs: 5_000,
  retryOnHttp429: false,
};

/** Upstream's `remote_timeout` default. */
export const REMOTE_WRITE_TIMEOUT_MS = 30_000;

/**
 * Headers the sender sets itself or that belong to the connection, which `headers` may not
 * change (upstream's list; `Authorization` has its own message).
 */
const RESERVED_HEADERS = new Set([
  'host',
  'content-encoding',
  'content-length',
  'content-type',
  'user-agent',
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'www-authenticate',
  'accept-encoding',
  'x-prometheus-remote-write-version',
  'x-prometheus-remote-read-version',
  'x-amz-date',
  'x-amz-security-token',
  'x-amz-content-sha256',
]);

const KEYS = [
  'url',
  'name',
  'remote_timeout',
  'headers',
  'write_relabel_configs',
  'send_exemplars',
  'send_native_histograms',
  'queue_config',
  'metadata_config',
  'sigv4',
  ...HTTP_CONFIG_KEYS,
];

/**
 * Decodes `remote_write` as Prometheus 2.42: every entry with upstream's defaults and checks, and
 * names unique among the entries that have one.
 */
export function decodeRemoteWriteConfigs(value: YamlValue): RemoteWriteConfig[] {
  const names = new Set<string>();
  return value.list().map((item) => {
    if (item.isNull) item.fail('empty or null remote write config section');
    const config = decodeRemoteWrite(item);
    // Upstream's wording, "job name" included; unnamed entries are told apart by their hash.
    if (config.name !== '' && names.has(config.name)) {
      item.fail(`found multiple remote write configs with job name ${JSON.stringify(config.name)}`);
    }
    names.add(config.name);
    return config;
  });
}

function decodeRemoteWrite(value: YamlValue): RemoteWriteConfig {
  const r = value.object(KEYS);
  const url = r.has('url') ? readUrl(r.get('url')) : '';
  if (url === '') value.fail('url for remote_write is empty');
  const writeRelabelConfigs = rawRelabelConfigs(
    r.get('write_relabel_configs'),
    'empty or null relabeling rule in remote write config',
  );
  const headers = decodeHeaders(r.get('headers'));
  const httpConfig = decodeHttpConfigFields(r);
  // Signing needs AWS credentials this server does not handle; sending unsigned would only fail.
  if (r.has('sigv4')) r.get('sigv4').fail('sigv4 is not supported');
  if (r.has('metadata_config')) {
    // Accepted and checked, but not acted on: the metric store keeps no metric metadata.
    const m = r.get('metadata_config').object(['send', 'send_interval', 'max_samples_per_send']);
    m.bool('send');
    m.duration('send_interval');
    if (m.has('max_samples_per_send')) m.get('max_samples_per_send').number('integer');
  }
  return {
    url,
    name: r.string('name'),
    remoteTimeoutMs: r.duration('remote_timeout', REMOTE_WRITE_TIMEOUT_MS),
    headers,
    writeRelabelConfigs,
    httpConfig,
    queueConfig: decodeQueueConfig(r.get('queue_config')),
    sendExemplars: r.bool('send_exemplars'),
    sendNativeHistograms: r.bool('send_native_histograms'),
  };
}

function decodeHeaders(value: YamlValue): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, header] of value.entries()) {
    const lower = name.toLowerCase();
    if (lower === 'authorization') {
      header.fail(
        'authorization header must be changed via the basic_auth, authorization, oauth2, or sigv4 parameter',
      );
    }
    if (RESERVED_HEADERS.has(lower)) {
      header.fail(`${name} is a reserved header. It must not be changed`);
    }
    headers[canonicalHeaderKey(name)] = header.string();
  }
  return headers;
}

function decodeQueueConfig(value: YamlValue): RemoteWriteQueueConfig {
  const r = value.object([
    'capacity',
    'max_shards',
    'min_shards',
    'max_samples_per_send',
    'batch_send_deadline',
    'min_backoff',
    'max_backoff',
    'retry_on_http_429',
  ]);
  const d = REMOTE_WRITE_QUEUE_DEFAULTS;
  return {
    capacity: positive(r, 'capacity', d.capacity),
    maxShards: positive(r, 'max_shards', d.maxShards),
    minShards: integer(r, 'min_shards', d.minShards),
    maxSamplesPerSend: positive(r, 'max_samples_per_send', d.maxSamplesPerSend),
    batchSendDeadlineMs: r.duration('batch_send_deadline', d.batchSendDeadlineMs),
    minBackoffMs: r.duration('min_backoff', d.minBackoffMs),
    maxBackoffMs: r.duration('max_backoff', d.maxBackoffMs),
    retryOnHttp429: r.bool('retry_on_http_429', d.retryOnHttp429),
  };
}

function integer(r: ObjectReader, key: string, fallback: number): number {
  return r.has(key) ? r.get(key).number('integer') : fallback;
}

/**
 * A size the queue cannot work without. Upstream takes 0 and then holds or sends nothing; here it
 * is refused, so the mistake shows when the file is loaded.
 */
function positive(r: ObjectReader, key: string, fallback: number): number {
  const n = integer(r, key, fallback);
  if (n === 0) r.get(key).fail(`${key} must be greater than 0`);
  return n;
}
