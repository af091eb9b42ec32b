import type { RawRelabelConfig, ScrapeConfig } from '../config';
import type { Labels } from '../tsdb/labels';
import { relabel } from './relabel';
import { decodeRelabelConfig, type RelabelConfig } from './relabel-config';
import type { JobRelabeling } from './scrape-pool';

/** A relabeling rule of the configuration that does not decode: where it is, and why. */
export class RelabelingError extends Error {}

/** Decodes a list of relabeling rules, naming the first bad one's place in the file. */
export function decodeRelabelConfigs(raw: readonly RawRelabelConfig[]): RelabelConfig[] {
  return raw.map(({ value, where }) => {
    try {
      return decodeRelabelConfig(value);
    } catch (error) {
      throw new RelabelingError(`${where}: ${(error as Error).message}`);
    }
  });
}

/** A job's `relabel_configs` and `metric_relabel_configs`, decoded and ready to apply. */
export function decodeJobRelabeling(config: ScrapeConfig): JobRelabeling {
  const targets = decodeRelabelConfigs(config.relabelConfigs);
  const metrics = decodeRelabelConfigs(config.metricRelabelConfigs);
  const apply = (configs: RelabelConfig[]) =>
    configs.length === 0
      ? (labels: Labels) => labels
      : (labels: Labels) => relabel(labels, configs);
  return { targets: apply(targets), metrics: apply(metrics) };
}
