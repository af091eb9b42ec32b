import { createHash } from 'node:crypto';
import type { Logger } from '../logging/logger';
import {
  isNflogEntry,
  nflogKey,
  type NflogEntry,
  type ReceiverKey,
  type SharedDeliveries,
  type SharedEntry,
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

/**
 * Keeps an attempt (ARGV: timestamp, entry, replica, lifetime in ms) beside the record unless
 * the record is at least as recent; the key lives at least as long as the attempt's entry.
 */
const ATTEMPT = `
local held = redis.call('HGET', KEYS[1], 'timestamp')
if held and tonumber(held) >= tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'attempt', ARGV[2], 'attemptReplica', ARGV[3])
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[4]) then redis.call('PEXPIRE', KEYS[1], ARGV[4]) end
return 1`;

/** Deletes the attempt (ARGV: entry, replica) only when it is still this replica's own. */
const WITHDRAW = `
if redis.call('HGET', KEYS[1], 'attempt') ~= ARGV[1] then return 0 end
if redis.call('HGET', KEYS[1], 'attemptReplica') ~= ARGV[2] then return 0 end
return redis.call('HDEL', KEYS[1], 'attempt', 'attemptReplica')`;

/** How long a flush waits for Redis to record or read a delivery, ms. */
const REDIS_TIMEOUT_MS = 500;

/**
 * The replicas' record of deliveries in Redis: one hash per group and integration,
 * `<prefix>:nflog:entry:<sha256 of the notification log key>`, holding the latest entry as the
 * notification log keeps it (`entry`, JSON), its `timestamp` and the `replica` that sent it, and
 * expiring with the entry (twice the repeat interval, capped by the retention). One key per entry
 * needs no scan and no clean-up, on one server as on a Redis Cluster. The same hash holds the
 * latest `attempt` (an entry written before its send, by the replica in `attemptReplica`), so
 * the record and the attempt are read in one command.
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

  record(entry: NflogEntry): Promise<void> {
    return this.write(RECORD, entry, 'a delivery');
  }

  attempt(entry: NflogEntry): Promise<void> {
    return this.write(ATTEMPT, entry, 'an attempt to deliver');
  }

  async withdraw(entry: NflogEntry): Promise<void> {
    await withTimeout(
      this.redis.eval(
        WITHDRAW,
        1,
        this.key(entry.groupKey, entry.receiver),
        JSON.stringify(entry),
        this.replica,
      ),
      REDIS_TIMEOUT_MS,
    ).catch((error: Error) =>
      // Left in Redis, the attempt makes the others take a failed send as delivered until a
      // later notification replaces it.
      this.logger.warn('taking back a failed attempt to deliver in Redis failed', {
        group: entry.groupKey,
        integration: entry.receiver.integration,
        err: error.message,
      }),
    );
  }

  async latest(groupKey: string, receiver: ReceiverKey): Promise<SharedEntry | undefined> {
    const fields = { group: groupKey, integration: receiver.integration };
    let data: (string | null)[];
    try {
      data = await withTimeout(
        this.redis.hmget(this.key(groupKey, receiver), 'entry', 'attempt'),
        REDIS_TIMEOUT_MS,
      );
    } catch (error) {
      this.logger.warn('reading the deliveries of the cluster failed: going by this log alone', {
        ...fields,
        err: (error as Error).message,
      });
      return undefined;
    }
    const [entry, attempt] = data.map((field) => this.parse(field, groupKey, receiver));
    if (attempt && (!entry || attempt.timestamp > entry.timestamp)) {
      return { entry: attempt, attempt: true };
    }
    return entry && { entry, attempt: false };
  }

  /** The recorded entry of the group and integration in `data`, when it is one. */
  private parse(
    data: string | null | undefined,
    groupKey: string,
    receiver: ReceiverKey,
  ): NflogEntry | undefined {
    if (data === null || data === undefined) return undefined;
    const entry = parse(data);
    if (!entry || nflogKey(entry.groupKey, entry.receiver) !== nflogKey(groupKey, receiver)) {
      this.logger.warn('ignoring an unreadable delivery of the cluster', {
        group: groupKey,
        integration: receiver.integration,
      });
      return undefined;
    }
    return entry;
  }

  /** Runs `script` over the entry's key, waiting for Redis half a second at most. */
  private async write(script: string, entry: NflogEntry, what: string): Promise<void> {
    const fields = { group: entry.groupKey, integration: entry.receiver.integration };
    const written = this.redis
      .eval(
        script,
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
          this.logger.error(`recording ${what} in Redis failed`, { ...fields, err: error.message }),
      );
    await withTimeout(written, REDIS_TIMEOUT_MS).catch(() =>
      this.logger.warn(`Redis is slow to record ${what}: it is recorded once Redis answers`, {
        ...fields,
      }),
    );
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
