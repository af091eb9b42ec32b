import type { ClusterRedis } from './redis-connection';
import type { ClaimOutcome, NotificationClaims } from '../notify';
import { withTimeout } from './with-timeout';

/** Deletes the claim only when this replica still holds it. */
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

/** How long a claim may wait for Redis before the replica sends without it, ms. */
const CLAIM_TIMEOUT_MS = 500;

/**
 * Notification claims in Redis: `SET <prefix>:claim:<key> <replica> NX PX <ttl>`; the replica
 * whose SET succeeds sends. A claim whose holder dies lapses after its ttl (the flush deadline),
 * so another replica sends at its next flush: a notification is never lost. When Redis does not
 * answer within half a second, the claim is `unavailable` and the replica sends anyway.
 */
export class RedisClaims implements NotificationClaims {
  constructor(
    private readonly redis: ClusterRedis,
    private readonly prefix: string,
    private readonly replica: string,
  ) {}

  async claim(key: string, ttlMs: number): Promise<ClaimOutcome> {
    try {
      const answer = await withTimeout(
        this.redis.set(this.key(key), this.replica, 'PX', Math.ceil(ttlMs), 'NX'),
        CLAIM_TIMEOUT_MS,
      );
      return answer === 'OK' ? 'won' : 'lost';
    } catch {
      return 'unavailable';
    }
  }

  async release(key: string): Promise<void> {
    await withTimeout(
      this.redis.eval(RELEASE, 1, this.key(key), this.replica),
      CLAIM_TIMEOUT_MS,
    ).catch(() => undefined);
  }

  private key(key: string): string {
    return `${this.prefix}:claim:${key}`;
  }
}
