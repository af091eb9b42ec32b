export { ApiQueryThreads } from './api-query-threads';
export {
  QueryThreadPool,
  type QueryThreadPoolOptions,
  type ThreadOutcome,
} from './query-thread-pool';
export { RuleQueryThreads } from './rule-query-threads';
export { ThreadStarts } from './thread-starts';
