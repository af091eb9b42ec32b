import { LOG_LEVELS } from '../logging/logger';
import { parseClusterRedisUrl, type ClusterRedisOptions } from '../cluster';
import { SERVER_DEFAULTS, type ServerOptions } from '../server/server-options';
import { CommandLineError, type CommandSpec, type ParsedCommandLine } from './flags/flag-spec';
import { enabledFeatures, ENABLE_FEATURE_FLAG } from './feature-flags';
import {
  datasourceUrl,
  durationOrZero,
  integer,
  positiveDuration,
  positiveInteger,
} from './flag-values';
import { traceUrlTemplate } from './trace-url-flag';
import { corsOrigin } from './cors-origin-flag';
import { tsdbRetention } from './tsdb-retention-flags';
import { statusFlags } from './status-flags';

/** The server's command line: Alertmanager's flag names and defaults. */
export const alertmanagerCommand: CommandSpec = {
  name: 'redisx-alertmanager',
  help: 'An Alertmanager-compatible alerting server.',
  flags: [
    {
      name: 'config.file',
      kind: 'string',
      default: 'alertmanager.yml',
      placeholder: 'FILE',
      help: 'Alertmanager configuration file name.',
    },
    {
      name: 'storage.path',
      kind: 'string',
      default: 'data/',
      placeholder: 'DIR',
      help: 'Base path for data storage.',
    },
    {
      name: 'web.listen-address',
      kind: 'string',
      default: ':9093',
      placeholder: 'ADDRESS',
      help: 'Address to listen on for the web interface and API.',
    },
    {
      name: 'web.external-url',
      kind: 'string',
      placeholder: 'URL',
      help: 'The URL under which Alertmanager is externally reachable (for example, if Alertmanager is served via a reverse proxy). Used for generating relative and absolute links back to Alertmanager itself. If the URL has a path portion, it will be used to prefix all HTTP endpoints served by Alertmanager. If omitted, relevant URL components will be derived automatically.',
    },
    {
      name: 'web.config.file',
      kind: 'string',
      default: '',
      placeholder: 'WEB.CONFIG.FILE',
      help: 'Path to configuration file that can enable TLS or authentication. See: https://github.com/prometheus/exporter-toolkit/blob/master/docs/web-configuration.md',
    },
    {
      name: 'web.route-prefix',
      kind: 'string',
      placeholder: 'PREFIX',
      help: 'Prefix for the internal routes of web endpoints. Defaults to path of --web.external-url.',
    },
    {
      name: 'web.max-request-bytes',
      kind: 'string',
      default: String(SERVER_DEFAULTS.maxRequestBytes),
      placeholder: 'BYTES',
      help: 'Maximum size of a request body in bytes; a longer one is refused with 413. If zero, no limit is set.',
    },
    {
      name: 'web.get-concurrency',
      kind: 'string',
      default: '0',
      placeholder: 'WEB.GET-CONCURRENCY',
      help: 'Maximum number of GET requests processed concurrently. If negative or zero, the limit is the number of CPUs or 8, whichever is larger.',
    },
    {
      name: 'web.timeout',
      kind: 'string',
      default: '0',
      placeholder: 'WEB.TIMEOUT',
      help: 'Timeout for HTTP requests. If negative or zero, no timeout is set.',
    },
    {
      name: 'web.trace-url',
      kind: 'string',
      default: '',
      placeholder: 'URL',
      help: 'Address of a trace in a tracing UI, with {{ .TraceID }} where the trace id goes (for example http://localhost:16686/trace/{{ .TraceID }}); the web UI links exemplars to their traces with it.',
    },
    {
      name: 'web.cors.origin',
      kind: 'string',
      default: '.*',
      placeholder: 'WEB.CORS.ORIGIN',
      help: "Origins whose pages may call the Prometheus API from a browser: a regex, fully anchored (for example 'https?://(grafana|dashboards)\\.example\\.com').",
    },
    {
      name: 'web.enable-remote-write-receiver',
      kind: 'bool',
      default: false,
      help: 'Enable API endpoint accepting remote write requests.',
    },
    {
      name: 'log.level',
      kind: 'enum',
      values: LOG_LEVELS,
      default: 'info',
      help: 'Only log messages with the given severity or above.',
    },
    {
      name: 'log.format',
      kind: 'enum',
      values: ['logfmt', 'json'],
      default: 'logfmt',
      help: 'Output format of log messages.',
    },
    {
      name: 'alerts.gc-interval',
      kind: 'string',
      default: '30m',
      placeholder: 'DURATION',
      help: 'Interval between alert GC.',
    },
    {
      name: 'alerts.max-labels-size-bytes',
      kind: 'string',
      default: String(SERVER_DEFAULTS.maxAlertLabelsBytes),
      placeholder: 'BYTES',
      help: 'Maximum size in bytes of the label names and values of one alert; a larger alert is refused. If zero, no limit is set.',
    },
    {
      name: 'alerts.max-annotations-size-bytes',
      kind: 'string',
      default: String(SERVER_DEFAULTS.maxAlertAnnotationsBytes),
      placeholder: 'BYTES',
      help: 'Maximum size in bytes of the annotation names and values and the generator URL of one alert; a larger alert is refused. If zero, no limit is set.',
    },
    {
      name: 'data.retention',
      kind: 'string',
      default: '120h',
      placeholder: 'DURATION',
      help: 'How long to keep data for.',
    },
    {
      name: 'data.maintenance-interval',
      kind: 'string',
      default: '15m',
      placeholder: 'DURATION',
      help: 'Interval between garbage collection and snapshotting to disk of the notification log.',
    },
    {
      name: 'storage.tsdb.retention.time',
      kind: 'string',
      placeholder: 'STORAGE.TSDB.RETENTION.TIME',
      help: 'How long to retain samples in the metric store. When this flag is set it overrides "storage.tsdb.retention". If neither this flag nor "storage.tsdb.retention" nor "storage.tsdb.retention.size" is set, the retention time defaults to 15d. Units Supported: y, w, d, h, m, s, ms.',
    },
    {
      name: 'storage.tsdb.retention.size',
      kind: 'string',
      placeholder: 'STORAGE.TSDB.RETENTION.SIZE',
      help: 'Maximum number of bytes that can be stored for the metric store\'s chunks and log. A unit is required, supported units: B, KB, MB, GB, TB, PB, EB. Ex: "512MB". Based on powers-of-2, so 1KB is 1024B.',
    },
    {
      name: 'storage.tsdb.retention',
      kind: 'string',
      placeholder: 'STORAGE.TSDB.RETENTION',
      help: '[DEPRECATED] How long to retain samples in the metric store. This flag has been deprecated, use "storage.tsdb.retention.time" instead.',
    },
    {
      name: 'rules.config.file',
      kind: 'string',
      default: '',
      placeholder: 'FILE',
      help: 'Prometheus-style configuration file (global, rule_files, scrape_configs, alerting, remote_write) of the rules to evaluate, the targets to scrape and where to send samples; reloaded with the configuration. If empty, no rules are evaluated.',
    },
    {
      name: 'rules.alert.resend-delay',
      kind: 'string',
      default: '1m',
      placeholder: 'DURATION',
      help: 'Minimum amount of time to wait before resending an alert to Alertmanager.',
    },
    {
      name: 'rules.alert.for-outage-tolerance',
      kind: 'string',
      default: '1h',
      placeholder: 'DURATION',
      help: "Max time to tolerate prometheus outage for restoring 'for' state of alert.",
    },
    {
      name: 'rules.alert.for-grace-period',
      kind: 'string',
      default: '10m',
      placeholder: 'DURATION',
      help: "Minimum duration between alert and restored 'for' state. This is maintained only for alerts with configured 'for' time greater than grace period.",
    },
    {
      name: 'rules.datasource.url',
      kind: 'string',
      default: '',
      placeholder: 'URL',
      help: "Prometheus-compatible query API (Prometheus, Thanos, Mimir, VictoriaMetrics) that answers the rules' expressions instead of the embedded store. Recorded series and ALERTS are still written to the embedded store.",
    },
    {
      name: 'rules.datasource.timeout',
      kind: 'string',
      default: '10s',
      placeholder: 'DURATION',
      help: 'Longest wait for one answer of --rules.datasource.url; a rule whose query times out is marked err.',
    },
    {
      name: 'query.lookback-delta',
      kind: 'string',
      default: '5m',
      placeholder: 'DURATION',
      help: 'The maximum lookback duration for retrieving metrics during expression evaluations and federation.',
    },
    {
      name: 'query.timeout',
      kind: 'string',
      default: '2m',
      placeholder: 'DURATION',
      help: 'Maximum time a query may take before being aborted.',
    },
    {
      name: 'query.max-concurrency',
      kind: 'string',
      default: String(SERVER_DEFAULTS.queryMaxConcurrency),
      placeholder: 'QUERY.MAX-CONCURRENCY',
      help: 'Maximum number of queries executed concurrently; each runs on a query thread (at most one per CPU), and more wait in order.',
    },
    {
      name: 'query.max-samples',
      kind: 'string',
      default: String(SERVER_DEFAULTS.queryMaxSamples),
      placeholder: 'QUERY.MAX-SAMPLES',
      help: 'Maximum number of samples a single query can load into memory. Note that queries will fail if they try to load more samples than this into memory, so this also limits the number of samples a query can return.',
    },
    {
      name: 'silences.max-silences',
      kind: 'string',
      default: '0',
      placeholder: 'SILENCES.MAX-SILENCES',
      help: 'Maximum number of active and pending silences (expired ones do not count). If negative or zero, no limit is set.',
    },
    {
      name: 'silences.max-silence-size-bytes',
      kind: 'string',
      default: '0',
      placeholder: 'SILENCES.MAX-SILENCE-SIZE-BYTES',
      help: 'Maximum silence size in bytes. If negative or zero, no limit is set.',
    },
    {
      name: 'cluster.redis-url',
      kind: 'string',
      default: '',
      placeholder: 'URL',
      help: 'Redis through which the replicas of a cluster share silences and the notification log and claim each notification: redis://host:6379 (or rediss://), redis+sentinel://host:26379,host2:26379/master, redis+cluster://host:7000,host2:7001. Empty: this instance runs alone.',
    },
    {
      name: 'cluster.redis-username',
      kind: 'string',
      default: '',
      placeholder: 'USER',
      help: "ACL user for --cluster.redis-url (overrides the URL's).",
    },
    {
      name: 'cluster.redis-password-file',
      kind: 'string',
      default: '',
      placeholder: 'FILE',
      help: "File holding the password for --cluster.redis-url (overrides the URL's).",
    },
    {
      name: 'cluster.redis-tls-ca-file',
      kind: 'string',
      default: '',
      placeholder: 'FILE',
      help: 'CA certificates to verify a rediss:// server with, instead of the system ones.',
    },
    {
      name: 'cluster.redis-tls-cert-file',
      kind: 'string',
      default: '',
      placeholder: 'FILE',
      help: 'Client certificate for a rediss:// server that asks for one.',
    },
    {
      name: 'cluster.redis-tls-key-file',
      kind: 'string',
      default: '',
      placeholder: 'FILE',
      help: 'Key of --cluster.redis-tls-cert-file.',
    },
    {
      name: 'cluster.listen-address',
      kind: 'string',
      default: '',
      placeholder: 'ADDRESS',
      help: 'Accepted for compatibility; gossip clustering is not supported (replicas share state through --cluster.redis-url), so a non-empty value only logs a warning.',
    },
    {
      name: 'cluster.peer',
      kind: 'string',
      repeatable: true,
      placeholder: 'ADDRESS',
      help: 'Accepted for compatibility; gossip clustering is not supported (see --cluster.redis-url).',
    },
    ENABLE_FEATURE_FLAG,
    { name: 'version', kind: 'bool', exits: true, help: 'Show application version.' },
  ],
};

/** Turns parsed flags into {@link ServerOptions}. */
export function serverOptionsFrom(parsed: ParsedCommandLine): ServerOptions {
  const text = (name: string) => parsed.flags[name] as string | undefined;
  return {
    configFile: text('config.file') as string,
    storagePath: text('storage.path') as string,
    listenAddress: text('web.listen-address') as string,
    externalUrl: text('web.external-url'),
    routePrefix: text('web.route-prefix'),
    webConfigFile: text('web.config.file') || undefined,
    logLevel: text('log.level') as ServerOptions['logLevel'],
    logFormat: text('log.format') as ServerOptions['logFormat'],
    alertsGcInterval: positiveDuration(parsed, 'alerts.gc-interval'),
    dataRetention: positiveDuration(parsed, 'data.retention'),
    maintenanceInterval: positiveDuration(parsed, 'data.maintenance-interval'),
    ...tsdbRetention(parsed),
    maxSilences: integer(parsed, 'silences.max-silences'),
    maxSilenceSizeBytes: integer(parsed, 'silences.max-silence-size-bytes'),
    maxRequestBytes: integer(parsed, 'web.max-request-bytes'),
    getConcurrency: integer(parsed, 'web.get-concurrency'),
    webTimeout: durationOrZero(parsed, 'web.timeout'),
    enableRemoteWriteReceiver: parsed.flags['web.enable-remote-write-receiver'] === true,
    traceUrl: traceUrlTemplate(text('web.trace-url')),
    corsOrigin: corsOrigin(text('web.cors.origin') ?? '.*'),
    clusterRedis: clusterRedis(parsed),
    maxAlertLabelsBytes: integer(parsed, 'alerts.max-labels-size-bytes'),
    maxAlertAnnotationsBytes: integer(parsed, 'alerts.max-annotations-size-bytes'),
    rulesConfigFile: text('rules.config.file') || undefined,
    rulesResendDelay: positiveDuration(parsed, 'rules.alert.resend-delay'),
    rulesForOutageTolerance: positiveDuration(parsed, 'rules.alert.for-outage-tolerance'),
    rulesForGracePeriod: positiveDuration(parsed, 'rules.alert.for-grace-period'),
    rulesDatasourceUrl: datasourceUrl(text('rules.datasource.url')),
    rulesDatasourceTimeout: positiveDuration(parsed, 'rules.datasource.timeout'),
    queryLookbackDelta: positiveDuration(parsed, 'query.lookback-delta'),
    queryTimeout: positiveDuration(parsed, 'query.timeout'),
    queryMaxConcurrency: positiveInteger(parsed, 'query.max-concurrency'),
    queryMaxSamples: positiveInteger(parsed, 'query.max-samples'),
    promqlDelayedNameRemoval: enabledFeatures(parsed).promqlDelayedNameRemoval,
    flagValues: statusFlags(alertmanagerCommand, parsed),
  };
}

/** The clustering flags that were given, for a warning: this server runs as one instance. */
export function clusterFlagsGiven(parsed: ParsedCommandLine): string[] {
  const given: string[] = [];
  if (parsed.flags['cluster.listen-address']) given.push('--cluster.listen-address');
  if ((parsed.flags['cluster.peer'] as string[]).length > 0) given.push('--cluster.peer');
  return given;
}

/** `--cluster.redis-url` and its credentials and TLS files, or none. */
function clusterRedis(parsed: ParsedCommandLine): ClusterRedisOptions | undefined {
  const text = (name: string) => (parsed.flags[name] as string | undefined) || undefined;
  const url = text('cluster.redis-url');
  if (!url) return undefined;
  try {
    parseClusterRedisUrl(url);
  } catch (error) {
    throw new CommandLineError(
      `invalid value "${url}" for flag --cluster.redis-url: ${(error as Error).message}`,
    );
  }
  return {
    url,
    username: text('cluster.redis-username'),
    passwordFile: text('cluster.redis-password-file'),
    tlsCaFile: text('cluster.redis-tls-ca-file'),
    tlsCertFile: text('cluster.redis-tls-cert-file'),
    tlsKeyFile: text('cluster.redis-tls-key-file'),
  };
}
