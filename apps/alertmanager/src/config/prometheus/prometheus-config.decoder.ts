import { decodeHttpConfigFields, HTTP_CONFIG_KEYS } from '../decoder/http-config.decoder';
import type { ObjectReader } from '../decoder/object-reader';
import type { YamlValue } from '../decoder/yaml-value';
import type {
  AlertingConfig,
  AlertmanagerTargetConfig,
  FileSdConfig,
  PrometheusConfig,
  PrometheusGlobalConfig,
  ScrapeConfig,
  StaticConfig,
  StorageConfig,
} from './prometheus-config.model';
import { rawRelabelConfigs } from './raw-relabel-configs';
import { decodeRemoteWriteConfigs } from './remote-write.decoder';

const MINUTE = 60_000;

/** Upstream's `DefaultGlobalConfig`. */
export const PROMETHEUS_GLOBAL_DEFAULTS: PrometheusGlobalConfig = {
  scrapeIntervalMs: MINUTE,
  scrapeTimeoutMs: 10_000,
  evaluationIntervalMs: MINUTE,
  externalLabels: {},
};

const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
/** Upstream's `patRulePath`: a `*` only in the last path segment. */
const RULE_PATH = /^[^*]*(\*[^/]*)?$/;

/**
 * Decodes a Prometheus configuration file's root as Prometheus 2.42 does: strict keys (the
 * sections this server runs: `global`, `rule_files`, `scrape_configs`, `alerting`,
 * `remote_write`), upstream's defaults and its validation messages.
 */
export function decodePrometheusConfig(root: YamlValue): PrometheusConfig {
  const r = root.object([
    'global',
    'rule_files',
    'scrape_configs',
    'alerting',
    'remote_write',
    'storage',
  ]);
  const global = decodeGlobal(r.get('global'));
  const ruleFiles = r
    .get('rule_files')
    .list()
    .map((item) => {
      const pattern = item.string();
      if (!RULE_PATH.test(pattern)) item.fail(`invalid rule file path ${JSON.stringify(pattern)}`);
      return root.ctx.resolvePath(pattern);
    });
  const jobs = new Set<string>();
  const scrapeConfigs = r
    .get('scrape_configs')
    .list()
    .map((item) => {
      if (item.isNull) item.fail('empty or null scrape config section');
      const config = decodeScrapeConfig(item, global);
      if (jobs.has(config.jobName)) {
        item.fail(`found multiple scrape configs with job name ${JSON.stringify(config.jobName)}`);
      }
      jobs.add(config.jobName);
      return config;
    });
  return {
    global,
    ruleFiles,
    scrapeConfigs,
    alerting: decodeAlerting(r.get('alerting')),
    remoteWrite: decodeRemoteWriteConfigs(r.get('remote_write')),
    storage: decodeStorage(r.get('storage')),
  };
}

/** Upstream's default `max_exemplars`. */
export const DEFAULT_MAX_EXEMPLARS = 100_000;
/** The most exemplars a ring can hold (a JavaScript array's length). */
const MAX_EXEMPLARS_LIMIT = 2 ** 32 - 1;

/** `storage`: only `exemplars` (unset or null: upstream's default). */
function decodeStorage(value: YamlValue): StorageConfig {
  const exemplars = value.object(['exemplars']).get('exemplars').object(['max_exemplars']);
  if (!exemplars.has('max_exemplars'))
    return { exemplars: { maxExemplars: DEFAULT_MAX_EXEMPLARS } };
  const field = exemplars.get('max_exemplars');
  const maxExemplars = field.number('integer');
  if (maxExemplars > MAX_EXEMPLARS_LIMIT) {
    field.fail(`expected a non-negative integer up to ${MAX_EXEMPLARS_LIMIT}, got ${maxExemplars}`);
  }
  return { exemplars: { maxExemplars } };
}

function decodeGlobal(value: YamlValue): PrometheusGlobalConfig {
  const r = value.object([
    'scrape_interval',
    'scrape_timeout',
    'evaluation_interval',
    'external_labels',
  ]);
  const externalLabels = r.get('external_labels').stringMap();
  for (const name of Object.keys(externalLabels)) {
    if (!LABEL_NAME.test(name)) {
      r.get('external_labels').fail(`${JSON.stringify(name)} is not a valid label name`);
    }
  }
  const scrapeIntervalMs =
    nonZero(r, 'scrape_interval') ?? PROMETHEUS_GLOBAL_DEFAULTS.scrapeIntervalMs;
  let scrapeTimeoutMs = nonZero(r, 'scrape_timeout');
  if (scrapeTimeoutMs !== undefined && scrapeTimeoutMs > scrapeIntervalMs) {
    value.fail('global scrape timeout greater than scrape interval');
  }
  // Upstream: without a timeout, the default one, or the interval when that is shorter.
  scrapeTimeoutMs ??= Math.min(PROMETHEUS_GLOBAL_DEFAULTS.scrapeTimeoutMs, scrapeIntervalMs);
  return {
    scrapeIntervalMs,
    scrapeTimeoutMs,
    evaluationIntervalMs:
      nonZero(r, 'evaluation_interval') ?? PROMETHEUS_GLOBAL_DEFAULTS.evaluationIntervalMs,
    externalLabels,
  };
}

const SCRAPE_KEYS = [
  'job_name',
  'honor_labels',
  'honor_timestamps',
  'track_timestamps_staleness',
  'params',
  'scrape_interval',
  'scrape_timeout',
  'metrics_path',
  'scheme',
  'sample_limit',
  'static_configs',
  'file_sd_configs',
  'relabel_configs',
  'metric_relabel_configs',
  ...HTTP_CONFIG_KEYS,
];

function decodeScrapeConfig(value: YamlValue, global: PrometheusGlobalConfig): ScrapeConfig {
  const r = value.object(SCRAPE_KEYS);
  const jobName = r.string('job_name');
  if (jobName === '') value.fail('job_name is empty');
  const httpConfig = decodeHttpConfigFields(r);
  const relabelConfigs = rawRelabelConfigs(
    r.get('relabel_configs'),
    'empty or null target relabeling rule in scrape config',
  );
  const staticConfigs = r.get('static_configs').list().map(decodeStaticConfig);
  if (relabelConfigs.length === 0) checkStaticTargets(r.get('static_configs'), staticConfigs);
  const scrapeIntervalMs = nonZero(r, 'scrape_interval') ?? global.scrapeIntervalMs;
  let scrapeTimeoutMs = nonZero(r, 'scrape_timeout');
  if (scrapeTimeoutMs !== undefined && scrapeTimeoutMs > scrapeIntervalMs) {
    value.fail(
      `scrape timeout greater than scrape interval for scrape config with job name ${JSON.stringify(jobName)}`,
    );
  }
  scrapeTimeoutMs ??= Math.min(global.scrapeTimeoutMs, scrapeIntervalMs);
  const params: Record<string, string[]> = {};
  for (const [name, values] of r.get('params').entries()) params[name] = values.stringList();
  return {
    jobName,
    honorLabels: r.bool('honor_labels', false),
    honorTimestamps: r.bool('honor_timestamps', true),
    trackTimestampsStaleness: r.bool('track_timestamps_staleness', false),
    params,
    scrapeIntervalMs,
    scrapeTimeoutMs,
    metricsPath: r.string('metrics_path', '/metrics'),
    scheme: scheme(r),
    sampleLimit: r.has('sample_limit') ? r.get('sample_limit').number('integer') : 0,
    httpConfig,
    staticConfigs,
    fileSdConfigs: r.get('file_sd_configs').list().map(decodeFileSdConfig),
    relabelConfigs,
    metricRelabelConfigs: rawRelabelConfigs(
      r.get('metric_relabel_configs'),
      'empty or null metric relabeling rule in scrape config',
    ),
  };
}

function decodeAlerting(value: YamlValue): AlertingConfig {
  const r = value.object(['alert_relabel_configs', 'alertmanagers']);
  return {
    alertRelabelConfigs: rawRelabelConfigs(
      r.get('alert_relabel_configs'),
      'empty or null alert relabeling rule',
    ),
    alertmanagers: r.get('alertmanagers').list().map(decodeAlertmanager),
  };
}

function decodeAlertmanager(value: YamlValue): AlertmanagerTargetConfig {
  const r = value.object([
    'scheme',
    'path_prefix',
    'timeout',
    'api_version',
    'static_configs',
    'file_sd_configs',
    'relabel_configs',
    ...HTTP_CONFIG_KEYS,
  ]);
  const apiVersion = r.string('api_version', 'v2');
  if (apiVersion !== 'v1' && apiVersion !== 'v2') {
    r.get('api_version').fail(
      `expected Alertmanager api version to be one of [v1 v2] but got ${apiVersion}`,
    );
  }
  const httpConfig = decodeHttpConfigFields(r);
  const relabelConfigs = rawRelabelConfigs(
    r.get('relabel_configs'),
    'empty or null Alertmanager target relabeling rule',
  );
  const staticConfigs = r.get('static_configs').list().map(decodeStaticConfig);
  if (relabelConfigs.length === 0) checkStaticTargets(r.get('static_configs'), staticConfigs);
  return {
    scheme: scheme(r),
    pathPrefix: r.string('path_prefix'),
    timeoutMs: r.duration('timeout', 10_000),
    apiVersion: apiVersion as 'v1' | 'v2',
    httpConfig,
    staticConfigs,
    fileSdConfigs: r.get('file_sd_configs').list().map(decodeFileSdConfig),
    relabelConfigs,
  };
}

function decodeStaticConfig(value: YamlValue): StaticConfig {
  const r = value.object(['targets', 'labels']);
  return { targets: r.get('targets').stringList(), labels: r.get('labels').stringMap() };
}

function decodeFileSdConfig(value: YamlValue): FileSdConfig {
  const r = value.object(['files', 'refresh_interval']);
  const files = r.get('files').list();
  if (files.length === 0) {
    value.fail('file service discovery config must contain at least one path name');
  }
  return {
    files: files.map((item) => {
      const name = item.string();
      if (!/^[^*]*(\*[^/]*)?\.(json|yml|yaml|JSON|YML|YAML)$/.test(name)) {
        item.fail(`path name ${JSON.stringify(name)} is not valid for file discovery`);
      }
      return value.ctx.resolvePath(name);
    }),
    refreshIntervalMs: r.duration('refresh_interval', 5 * MINUTE),
  };
}

/** Upstream refuses URLs where a `host:port` belongs, unless relabeling may rewrite them. */
function checkStaticTargets(value: YamlValue, configs: readonly StaticConfig[]): void {
  for (const config of configs) {
    for (const target of config.targets) {
      if (target.includes('/')) value.fail(`${JSON.stringify(target)} is not a valid hostname`);
    }
  }
}

function scheme(r: ObjectReader): 'http' | 'https' {
  const text = r.string('scheme', 'http');
  if (text !== 'http' && text !== 'https') {
    r.get('scheme').fail(`scheme must be "http" or "https", got ${JSON.stringify(text)}`);
  }
  return text as 'http' | 'https';
}

/** A duration that counts as unset when zero, as upstream's `omitempty` durations. */
function nonZero(r: ObjectReader, key: string): number | undefined {
  const ms = r.duration(key);
  return ms === 0 ? undefined : ms;
}
