export { Labels, METRIC_NAME, compareLabels } from './labels';
export type { Querier, Queryable, SampleRun, SelectedSeries, SeriesMatcher } from './queryable';
export { SampleScratch } from './queryable';
export { MemoryStore } from './memory-store';
export { MemorySeries, SampleRejectedError } from './memory-series';
export { MetricAppender } from './metric-appender';
export { MetricStorage } from './metric-storage';
export type { CheckpointHook, CheckpointStage } from './checkpoint-stages';
export type {
  AppendedBatch,
  AppendListener,
  AppendResult,
  MetricStorageOptions,
} from './metric-storage';
