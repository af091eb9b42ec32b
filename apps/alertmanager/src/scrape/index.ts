export { ScrapeManager, type RelabelingDecoder } from './scrape-manager';
export {
  ScrapePool,
  type DroppedTarget,
  type JobRelabeling,
  type ScrapePoolDeps,
} from './scrape-pool';
export {
  ScrapeLoop,
  type ScrapedSample,
  type ScrapeAppender,
  type TargetStatus,
} from './scrape-loop';
export { publicLabels, type ScrapeTarget } from './scrape-target';
export {
  MetadataCache,
  type MetadataSink,
  type MetricMetadata,
  type MetricType,
} from './metadata-cache';
export { decodeJobRelabeling } from './job-relabeling';
export {
  decodeRelabelConfig,
  decodeRelabelConfigs,
  relabel,
  relabeler,
  RelabelConfigError,
  type RelabelConfig,
} from './relabel';
export {
  ExpositionError,
  parseExposition,
  SCRAPE_ACCEPT_HEADER,
  scrapedSamples,
} from './exposition-parser';
export { readTargetFile, staticGroups, type TargetGroup } from './target-groups';
