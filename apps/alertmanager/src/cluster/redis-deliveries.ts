import { createHash } from 'node:crypto';
import type { Logger } from '../logging/logger';
import {
  isNflogEntry,
  nflogKey,
  type NflogEntry,
  type ReceiverKey,
  type SharedDeliveries,
} from '../notify';
import type { ClusterRedis } from './redis-connection';
import { withTimeout } from './with-timeout';

/**
 * Keeps an entry (ARGV: timestamp, entry, replica, lifetime in ms) unless the key holds one at
 * least as recent, upstream's merge rule; the key lives as long as the entry it holds.
 */
const RECORD = `
local held = redis.call('HGET', KEYS[1], 'timestamp')
if held and tonumber(held) >= tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'timestamp', ARGV[1], 'entry', ARGV[2], 'replica', ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1`;

/** How long a flush waits for Redis to record or read a delivery, ms. */
const REDIS_TIMEOUT_MS = 500;

/**
 * The replicas' record of deliveries in Redis: one hash per group and integration,
 * `<prefix>:nflog:entry:<sha256 of the notification log key>`, holding the latest entry as the
 * notification log keeps it (`entry`, JSON), its `timestamp` and the `replica` that sent it, and
 * expiring with the entry (twice the repeat interval, capped by the retention). One key per entry
 * needs no scan and no clean-up, on one server as on a Redis Cluster.
 *
 * Redis is waited for half a second at most: a record that takes longer stays queued on the
 * connection and is written when Redis answers; a read that does not answer in time leaves the
 * replica with its own log, as when the stream is all it has.
 */
export class RedisDeliveries implements SharedDeliveries {
  constructor(
    private readonly redis: ClusterRedis,
    private readonly prefix: string,
    private readonly replica: string,
    private readonly logger: Logger,
  ) {}

  async record(entry: NflogEntry): Promise<void> {
    const fields = { group: entry.groupKey, integration: entry.receiver.integration };
    const recorded = this.redis
      .eval(
        RECORD,
        1,
        this.key(entry.groupKey, entry.receiver),
        entry.timestamp,
        JSON.stringify(entry),
        this.replica,
        // Relative, so the key's lifetime does not depend on this replica's clock agreeing with
        // Redis's; readers also compare `expiresAt` with their flush time.
        Math.max(1, Math.ceil(entry.expiresAt - entry.timestamp)),
      )
      .then(
        () => undefined,
        (error: Error) =>
          this.logger.error('recording a delivery in Redis failed', {
            ...fields,
            err: error.message,
          }),
      );
    await withTimeout(recorded, REDIS_TIMEOUT_MS).catch(() =>
      this.logger.warn('Redis is slow to record a delivery: it is recorded once Redis answers', {
        ...fields,
      }),
    );
  }

  async latest(groupKey: string, receiver: ReceiverKey): Promise<NflogEntry | undefined> {
    const fields = { group: groupKey, integration: receiver.integration };
    let data: string | null;
    try {
      data = await withTimeout(
        this.redis.hget(this.key(groupKey, receiver), 'entry'),
        REDIS_TIMEOUT_MS,
      );
    } catch (error) {
      this.logger.warn('reading the deliveries of the cluster failed: going by this log alone', {
        ...fields,
        err: (error as Error).message,
      });
      return undefined;
    }
    if (data === null) return undefined;
    const entry = parse(data);
    if (!entry || nflogKey(entry.groupKey, entry.receiver) !== nflogKey(groupKey, receiver)) {
      this.logger.warn('ignoring an unreadable delivery of the cluster', fields);
      return undefined;
    }
    return entry;
  }

  private key(groupKey: string, receiver: ReceiverKey): string {
    const digest = createHash('sha256').update(nflogKey(groupKey, receiver)).digest('hex');
    return `${this.prefix}:nflog:entry:${digest}`;
  }
}

function parse(data: string): NflogEntry | undefined {
  try {
    const entry: unknown = JSON.parse(data);
    return isNflogEntry(entry) ? entry : undefined;
  } catch {
    return undefined;
  }
}
