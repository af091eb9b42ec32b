export { RedisStreamLink, type StreamEntry } from './redis-stream-link';
export { shareSilences, SILENCES_STREAM } from './shared-silences';
