import type { HttpConfig } from '../model/http-config.model';

/** A Prometheus-style configuration (`--rules.config.file`): what to scrape and which rules to run. */
export interface PrometheusConfig {
  readonly global: PrometheusGlobalConfig;
  /** `rule_files` patterns, resolved against the file's directory. */
  readonly ruleFiles: readonly string[];
  readonly scrapeConfigs: readonly ScrapeConfig[];
  readonly alerting: AlertingConfig;
  /** `remote_write`: where every appended sample is also sent. */
  readonly remoteWrite: readonly RemoteWriteConfig[];
  /**
   * `storage`: what the metric store keeps besides samples. The decoder always fills it in;
   * a configuration built without it stands for the defaults.
   */
  readonly storage?: StorageConfig;
}

/** `storage` (its `exemplars` part; upstream's `tsdb` part is not taken). */
export interface StorageConfig {
  readonly exemplars: ExemplarsConfig;
}

/** `storage.exemplars`: the exemplar store, resized by a reload. */
export interface ExemplarsConfig {
  /** `max_exemplars`: how many exemplars the one ring of every series holds; 0 keeps none. */
  readonly maxExemplars: number;
}

export interface PrometheusGlobalConfig {
  readonly scrapeIntervalMs: number;
  readonly scrapeTimeoutMs: number;
  readonly evaluationIntervalMs: number;
  readonly externalLabels: Readonly<Record<string, string>>;
}

/** Targets given in the file: addresses (`host:port`) and the labels they all get. */
export interface StaticConfig {
  readonly targets: readonly string[];
  readonly labels: Readonly<Record<string, string>>;
}

/** Targets read from JSON or YAML files, re-read on change and every `refresh_interval`. */
export interface FileSdConfig {
  readonly files: readonly string[];
  readonly refreshIntervalMs: number;
}

/** One `scrape_configs` entry, with the global defaults applied. */
export interface ScrapeConfig {
  readonly jobName: string;
  readonly honorLabels: boolean;
  readonly honorTimestamps: boolean;
  /**
   * `track_timestamps_staleness`: whether series exposed with their own timestamps get staleness
   * markers when they disappear (by default they do not).
   */
  readonly trackTimestampsStaleness: boolean;
  readonly params: Readonly<Record<string, readonly string[]>>;
  readonly scrapeIntervalMs: number;
  readonly scrapeTimeoutMs: number;
  readonly metricsPath: string;
  readonly scheme: 'http' | 'https';
  /** Per-scrape limit of samples after metric relabeling; 0 means none. */
  readonly sampleLimit: number;
  readonly httpConfig: HttpConfig;
  readonly staticConfigs: readonly StaticConfig[];
  readonly fileSdConfigs: readonly FileSdConfig[];
  /** Relabeling of targets before scraping. */
  readonly relabelConfigs: readonly RawRelabelConfig[];
  /** Relabeling of every scraped sample. */
  readonly metricRelabelConfigs: readonly RawRelabelConfig[];
}

/** `alerting`: where alerts also go besides the built-in dispatcher. */
export interface AlertingConfig {
  readonly alertRelabelConfigs: readonly RawRelabelConfig[];
  readonly alertmanagers: readonly AlertmanagerTargetConfig[];
}

export interface AlertmanagerTargetConfig {
  readonly scheme: 'http' | 'https';
  readonly pathPrefix: string;
  readonly timeoutMs: number;
  readonly apiVersion: 'v1' | 'v2';
  readonly httpConfig: HttpConfig;
  readonly staticConfigs: readonly StaticConfig[];
  readonly fileSdConfigs: readonly FileSdConfig[];
  readonly relabelConfigs: readonly RawRelabelConfig[];
}

/**
 * One relabeling rule as written, with where it is (`file:line: path`): the scraper decodes and
 * validates it with the relabeling code, so the configuration does not depend on it.
 */
export interface RawRelabelConfig {
  readonly value: unknown;
  readonly where: string;
}

/** One `remote_write` entry, with upstream's defaults applied. */
export interface RemoteWriteConfig {
  readonly url: string;
  /** `name`; empty when unset (the sender then names the queue after the entry's hash). */
  readonly name: string;
  readonly remoteTimeoutMs: number;
  /** Extra request headers (`headers`); the reserved ones are refused by the decoder. */
  readonly headers: Readonly<Record<string, string>>;
  /** Relabeling of every sample before it is sent. */
  readonly writeRelabelConfigs: readonly RawRelabelConfig[];
  readonly httpConfig: HttpConfig;
  readonly queueConfig: RemoteWriteQueueConfig;
  /** Accepted for compatibility: remote write does not send the stored exemplars. */
  readonly sendExemplars: boolean;
  /** Accepted for compatibility: the metric store keeps no native histograms to send. */
  readonly sendNativeHistograms: boolean;
}

/** `queue_config`: how samples wait and are batched for one remote. */
export interface RemoteWriteQueueConfig {
  /** Samples one shard holds before it refuses more. */
  readonly capacity: number;
  readonly maxShards: number;
  readonly minShards: number;
  readonly maxSamplesPerSend: number;
  readonly batchSendDeadlineMs: number;
  readonly minBackoffMs: number;
  readonly maxBackoffMs: number;
  /** Whether `429 Too Many Requests` is retried (after `Retry-After`) instead of dropped. */
  readonly retryOnHttp429: boolean;
}
