import { decodeHttpHeaders } from './decoder/http-headers.decoder';
import { decodeTlsConfig, defaultTlsConfig } from './decoder/tls-config.decoder';
import type { YamlValue } from './decoder/yaml-value';
import type { TracingConfig } from './model/tracing.model';

const KEYS = [
  'client_type',
  'endpoint',
  'sampling_fraction',
  'insecure',
  'tls_config',
  'headers',
  'compression',
  'timeout',
];

/** Decodes upstream's top-level `tracing` section, so files that set it still load. */
export function decodeTracing(value: YamlValue): TracingConfig {
  const r = value.object(KEYS);
  const clientType = r.string('client_type', 'grpc');
  if (clientType !== 'grpc' && clientType !== 'http') {
    r.get('client_type').fail(`invalid client type ${JSON.stringify(clientType)}`);
  }
  if (r.string('endpoint') === '') value.fail('tracing endpoint must be set');
  const compression = r.optionalString('compression');
  if (compression !== undefined && compression !== 'gzip') {
    value.fail(`invalid compression type ${compression} provided, valid options: gzip`);
  }
  return {
    client_type: clientType as TracingConfig['client_type'],
    endpoint: r.string('endpoint'),
    sampling_fraction: r.get('sampling_fraction').number(),
    insecure: r.bool('insecure'),
    tls_config: r.has('tls_config') ? decodeTlsConfig(r.get('tls_config')) : defaultTlsConfig(),
    headers: decodeHttpHeaders(r.get('headers')),
    compression,
    timeout: r.duration('timeout', 0),
  };
}
