import { createHash } from 'node:crypto';
import { nflogKey, type ReceiverKey } from './nflog-entry';
import type { NotifyContext } from './notify-context';

/** What a claim attempt came to. */
export type ClaimOutcome =
  /** This replica sends the notification. */
  | 'won'
  /** Another replica holds it: it sends, this one does not. */
  | 'lost'
  /** The claim could not be asked for: this replica sends anyway (availability first). */
  | 'unavailable';

/**
 * Where replicas agree on who sends a notification: the first to claim its key within the
 * claim's lifetime sends it. Implemented over Redis by `cluster/`; absent for a lone server.
 */
export interface NotificationClaims {
  claim(key: string, ttlMs: number): Promise<ClaimOutcome>;
  /** Gives a claim up (a send that failed), so another replica may send at its next flush. */
  release(key: string): Promise<void>;
}

/**
 * The key of one notification, the same on every replica that would send it: the group, the
 * receiver's integration, the firing and resolved alerts, and the last notification the log
 * knew of (so the next notification of the same alerts has a new key).
 */
export function claimKeyOf(ctx: NotifyContext, receiver: ReceiverKey): string {
  const hash = createHash('sha256');
  hash.update(nflogKey(ctx.groupKey, receiver));
  hash.update('\0');
  hash.update([...(ctx.firing ?? [])].sort().join(','));
  hash.update('\0');
  hash.update([...(ctx.resolved ?? [])].sort().join(','));
  hash.update('\0');
  hash.update(String(ctx.previousNotification ?? 0));
  return hash.digest('hex');
}
