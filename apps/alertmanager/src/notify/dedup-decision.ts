import type { NotificationReason } from './notify-context';

/** What the notification log remembers of the last successful notification of a group. */
export interface LastNotification {
  /** Epoch milliseconds of that flush. */
  timestamp: number;
  firingAlerts: readonly string[];
  resolvedAlerts: readonly string[];
}

/** The current flush, as the dedup stage sees it. */
export interface DedupInput {
  firing: ReadonlySet<string>;
  resolved: ReadonlySet<string>;
  sendResolved: boolean;
  /** Milliseconds. */
  repeatInterval: number;
  now: number;
}

function subset(items: ReadonlySet<string>, of: readonly string[]): boolean {
  const set = new Set(of);
  for (const item of items) if (!set.has(item)) return false;
  return true;
}

/**
 * Upstream's dedup decision table (`DedupStage.needsUpdate`), returning why to notify or
 * undefined to stay quiet:
 * 1. no entry: notify iff something fires;
 * 2. a firing alert the last notification did not contain: notify;
 * 3. nothing fires: notify iff the last notification had firing alerts, whatever
 *    `send_resolved` says, so the log is cleared (the retry stage then sends nothing);
 * 4. with `send_resolved`, a resolved alert not yet notified as resolved: notify;
 * 5. otherwise notify iff the last notification is older than `repeat_interval`.
 */
export function dedupDecision(
  entry: LastNotification | undefined,
  input: DedupInput,
): NotificationReason | undefined {
  if (!entry) return input.firing.size > 0 ? 'first notification' : undefined;
  if (!subset(input.firing, entry.firingAlerts)) return 'new alerts added';
  if (input.firing.size === 0) {
    return entry.firingAlerts.length > 0 ? 'all alerts resolved' : undefined;
  }
  if (input.sendResolved && !subset(input.resolved, entry.resolvedAlerts)) {
    return 'some alerts resolved';
  }
  return entry.timestamp < input.now - input.repeatInterval ? 'repeat interval elapsed' : undefined;
}
