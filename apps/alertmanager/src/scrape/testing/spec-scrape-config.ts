import type { ScrapeConfig } from '../../config';
import { defaultHttpConfig } from '../../config/decoder/http-config.decoder';

/** A scrape config as the decoder would give it for job `app` with no targets; `over` changes it. */
export function specScrapeConfig(over: Partial<ScrapeConfig> = {}): ScrapeConfig {
  return {
    jobName: 'app',
    honorLabels: false,
    honorTimestamps: true,
    trackTimestampsStaleness: false,
    params: {},
    scrapeIntervalMs: 15_000,
    scrapeTimeoutMs: 1_000,
    metricsPath: '/metrics',
    scheme: 'http',
    sampleLimit: 0,
    httpConfig: defaultHttpConfig(),
    staticConfigs: [],
    fileSdConfigs: [],
    relabelConfigs: [],
    metricRelabelConfigs: [],
    ...over,
  } as ScrapeConfig;
}
