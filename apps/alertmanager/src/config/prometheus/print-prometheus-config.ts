import { formatDuration } from '../../time/duration';
import { GoYamlFlow, goMap, GoYamlMap, writeGoYaml, type GoYamlValue } from './go-yaml-writer';
import { httpClientEntries, redactedUrl } from './print-http-client-config';
import { DEFAULT_MAX_EXEMPLARS, PROMETHEUS_GLOBAL_DEFAULTS } from './prometheus-config.decoder';
import type {
  AlertmanagerTargetConfig,
  FileSdConfig,
  PrometheusConfig,
  RawRelabelConfig,
  RemoteWriteConfig,
  ScrapeConfig,
  StaticConfig,
} from './prometheus-config.model';

type Entries = Array<readonly [string, GoYamlValue]>;

/** What Prometheus runs on with an empty configuration file: the global defaults alone. */
const EMPTY_CONFIG: PrometheusConfig = {
  global: PROMETHEUS_GLOBAL_DEFAULTS,
  ruleFiles: [],
  scrapeConfigs: [],
  alerting: { alertRelabelConfigs: [], alertmanagers: [] },
  remoteWrite: [],
};

/**
 * A Prometheus-style configuration as Prometheus 2.42 prints it in `/api/v1/status/config`: the
 * sections and fields in its order and spelling, defaults filled in, empty ones left out, secrets
 * as `<secret>`. Without a configuration (no `--rules.config.file`), what Prometheus prints for an
 * empty file. `metadata_config` of `remote_write` is accepted but not acted on here, so it is not
 * printed.
 */
export function printPrometheusConfig(config: PrometheusConfig = EMPTY_CONFIG): string {
  const root: Entries = [['global', globalMap(config)]];
  const { alertRelabelConfigs, alertmanagers } = config.alerting;
  if (alertRelabelConfigs.length > 0 || alertmanagers.length > 0) {
    const alerting: Entries = [];
    if (alertRelabelConfigs.length > 0) {
      alerting.push(['alert_relabel_configs', alertRelabelConfigs.map(relabelMap)]);
    }
    if (alertmanagers.length > 0) alerting.push(['alertmanagers', alertmanagers.map(alertmanager)]);
    root.push(['alerting', new GoYamlMap(alerting)]);
  }
  if (config.ruleFiles.length > 0) root.push(['rule_files', config.ruleFiles]);
  if (config.scrapeConfigs.length > 0) {
    root.push(['scrape_configs', config.scrapeConfigs.map(scrapeConfig)]);
  }
  const maxExemplars = config.storage?.exemplars.maxExemplars ?? DEFAULT_MAX_EXEMPLARS;
  // Upstream prints `storage` only when the file has it; the default is taken as its absence.
  if (maxExemplars !== DEFAULT_MAX_EXEMPLARS) {
    const exemplars = maxExemplars === 0 ? [] : [['max_exemplars', maxExemplars] as const];
    root.push(['storage', new GoYamlMap([['exemplars', new GoYamlMap(exemplars)]])]);
  }
  if (config.remoteWrite.length > 0)
    root.push(['remote_write', config.remoteWrite.map(remoteWrite)]);
  return writeGoYaml(new GoYamlMap(root));
}

function globalMap({ global }: PrometheusConfig): GoYamlMap {
  const out: Entries = [
    ['scrape_interval', formatDuration(global.scrapeIntervalMs)],
    ['scrape_timeout', formatDuration(global.scrapeTimeoutMs)],
    ['evaluation_interval', formatDuration(global.evaluationIntervalMs)],
  ];
  if (Object.keys(global.externalLabels).length > 0) {
    out.push(['external_labels', goMap(global.externalLabels)]);
  }
  return new GoYamlMap(out);
}

function scrapeConfig(job: ScrapeConfig): GoYamlMap {
  const out: Entries = [['job_name', job.jobName]];
  if (job.honorLabels) out.push(['honor_labels', true]);
  out.push(['honor_timestamps', job.honorTimestamps]);
  // Not in 2.42; later versions print it here.
  if (job.trackTimestampsStaleness) out.push(['track_timestamps_staleness', true]);
  if (Object.keys(job.params).length > 0) out.push(['params', goMap(job.params)]);
  out.push(
    ['scrape_interval', formatDuration(job.scrapeIntervalMs)],
    ['scrape_timeout', formatDuration(job.scrapeTimeoutMs)],
    ['metrics_path', job.metricsPath],
    ['scheme', job.scheme],
  );
  if (job.sampleLimit > 0) out.push(['sample_limit', job.sampleLimit]);
  out.push(...httpClientEntries(job.httpConfig));
  if (job.relabelConfigs.length > 0) {
    out.push(['relabel_configs', job.relabelConfigs.map(relabelMap)]);
  }
  if (job.metricRelabelConfigs.length > 0) {
    out.push(['metric_relabel_configs', job.metricRelabelConfigs.map(relabelMap)]);
  }
  out.push(...discovery(job.fileSdConfigs, job.staticConfigs));
  return new GoYamlMap(out);
}

function alertmanager(am: AlertmanagerTargetConfig): GoYamlMap {
  const out: Entries = [...httpClientEntries(am.httpConfig), ['scheme', am.scheme]];
  if (am.pathPrefix !== '') out.push(['path_prefix', am.pathPrefix]);
  out.push(['timeout', formatDuration(am.timeoutMs)], ['api_version', am.apiVersion]);
  if (am.relabelConfigs.length > 0)
    out.push(['relabel_configs', am.relabelConfigs.map(relabelMap)]);
  out.push(...discovery(am.fileSdConfigs, am.staticConfigs));
  return new GoYamlMap(out);
}

function remoteWrite(rw: RemoteWriteConfig): GoYamlMap {
  const out: Entries = [
    ['url', redactedUrl(rw.url)],
    ['remote_timeout', formatDuration(rw.remoteTimeoutMs)],
  ];
  if (Object.keys(rw.headers).length > 0) out.push(['headers', goMap(rw.headers)]);
  if (rw.writeRelabelConfigs.length > 0) {
    out.push(['write_relabel_configs', rw.writeRelabelConfigs.map(relabelMap)]);
  }
  if (rw.name !== '') out.push(['name', rw.name]);
  if (rw.sendExemplars) out.push(['send_exemplars', true]);
  if (rw.sendNativeHistograms) out.push(['send_native_histograms', true]);
  out.push(...httpClientEntries(rw.httpConfig));
  const q = rw.queueConfig;
  const queue: Entries = [];
  const counts: Array<[string, number]> = [
    ['capacity', q.capacity],
    ['max_shards', q.maxShards],
    ['min_shards', q.minShards],
    ['max_samples_per_send', q.maxSamplesPerSend],
  ];
  for (const [key, n] of counts) if (n !== 0) queue.push([key, n]);
  const durations: Array<[string, number]> = [
    ['batch_send_deadline', q.batchSendDeadlineMs],
    ['min_backoff', q.minBackoffMs],
    ['max_backoff', q.maxBackoffMs],
  ];
  for (const [key, ms] of durations) if (ms !== 0) queue.push([key, formatDuration(ms)]);
  if (q.retryOnHttp429) queue.push(['retry_on_http_429', true]);
  out.push(['queue_config', new GoYamlMap(queue)]);
  return new GoYamlMap(out);
}

/** Service discovery, after every other field and by name, as Prometheus inlines it. */
function discovery(files: readonly FileSdConfig[], statics: readonly StaticConfig[]): Entries {
  const out: Entries = [];
  if (files.length > 0) {
    out.push([
      'file_sd_configs',
      files.map(
        (sd) =>
          new GoYamlMap([
            ['files', sd.files],
            ['refresh_interval', formatDuration(sd.refreshIntervalMs)],
          ]),
      ),
    ]);
  }
  if (statics.length > 0) {
    out.push([
      'static_configs',
      statics.map((group) => {
        const fields: Entries = [['targets', group.targets]];
        if (Object.keys(group.labels).length > 0) fields.push(['labels', goMap(group.labels)]);
        return new GoYamlMap(fields);
      }),
    ]);
  }
  return out;
}

/**
 * One relabeling rule as Prometheus prints it: its defaults (`;`, `(.*)`, `$1`, `replace`) filled
 * in, the action lower-cased, empty fields left out. The rule was validated when it was loaded.
 */
function relabelMap(rule: RawRelabelConfig): GoYamlMap {
  const given = (rule.value ?? {}) as Record<string, unknown>;
  const text = (key: string, fallback: string) =>
    given[key] === undefined || given[key] === null ? fallback : String(given[key]);
  const out: Entries = [];
  const sources = Array.isArray(given['source_labels']) ? given['source_labels'].map(String) : [];
  if (sources.length > 0) out.push(['source_labels', new GoYamlFlow(sources)]);
  const separator = text('separator', ';');
  if (separator !== '') out.push(['separator', separator]);
  const regex = text('regex', '(.*)');
  // An empty regex prints as null in 2.42 (its marshaller gives nothing for it).
  out.push(['regex', regex === '' ? null : regex]);
  const modulus = Number(given['modulus'] ?? 0);
  if (modulus !== 0) out.push(['modulus', modulus]);
  const target = text('target_label', '');
  if (target !== '') out.push(['target_label', target]);
  const replacement = text('replacement', '$1');
  if (replacement !== '') out.push(['replacement', replacement]);
  out.push(['action', text('action', 'replace').toLowerCase()]);
  return new GoYamlMap(out);
}
