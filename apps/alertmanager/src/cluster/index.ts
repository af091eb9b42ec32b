export { RedisStreamLink, type StreamEntry } from './redis-stream-link';
export { shareSilences, SILENCES_STREAM } from './shared-silences';
export { shareNotificationLog, NFLOG_STREAM } from './shared-notification-log';
export { RedisClaims } from './redis-claims';
export { RedisDeliveries } from './redis-deliveries';
export { ClusterPeers, type PeerView } from './cluster-peers';
export {
  connectClusterRedis,
  parseClusterRedisUrl,
  type ClusterRedis,
  type ClusterRedisOptions,
} from './redis-connection';
