import type { ScrapeConfig } from '../config';
import { decodeRelabelConfigs, relabeler } from './relabel';
import type { JobRelabeling } from './scrape-pool';

/**
 * A job's `relabel_configs` and `metric_relabel_configs`, decoded (a bad rule throws naming its
 * place in the file) and ready to apply.
 */
export function decodeJobRelabeling(config: ScrapeConfig): JobRelabeling {
  return {
    targets: relabeler(decodeRelabelConfigs(config.relabelConfigs)),
    metrics: relabeler(decodeRelabelConfigs(config.metricRelabelConfigs)),
  };
}
