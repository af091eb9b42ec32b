import type { HttpConfig } from '../model/http-config.model';

/** A Prometheus-style configuration (`--rules.config.file`): what to scrape and which rules to run. */
export interface PrometheusConfig {
  readonly global: PrometheusGlobalConfig;
  /** `rule_files` patterns, resolved against the file's directory. */
  readonly ruleFiles: readonly string[];
  readonly scrapeConfigs: readonly ScrapeConfig[];
  readonly alerting: AlertingConfig;
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
