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
export { decodeJobRelabeling, decodeRelabelConfigs, RelabelingError } from './job-relabeling';
export { relabel } from './relabel';
export { decodeRelabelConfig, RelabelConfigError, type RelabelConfig } from './relabel-config';
export {
  ExpositionError,
  parseExposition,
  SCRAPE_ACCEPT_HEADER,
  scrapedSamples,
} from './exposition-parser';
