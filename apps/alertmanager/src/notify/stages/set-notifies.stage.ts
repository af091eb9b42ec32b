import type { Alert } from '../../alerts/alert.model';
import type { NflogEntry, ReceiverKey } from '../nflog-entry';
import type { NotificationLog } from '../notification-log';
import type { NotifyContext } from '../notify-context';
import type { SharedDeliveries } from '../shared-deliveries';
import type { Stage, StageResult } from '../stage';

/**
 * Records a successful notification in the notification log: what fired and what was resolved,
 * expiring after twice the repeat interval (capped by the retention), as upstream. In a cluster
 * the same entry is recorded in the replicas' shared record at the same time, and the flush only
 * counts the notification as done once both hold it: a replica that dies right after is still
 * known to have sent it.
 */
export class SetNotifiesStage implements Stage {
  constructor(
    private readonly nflog: NotificationLog,
    private readonly receiver: ReceiverKey,
    private readonly shared?: SharedDeliveries,
  ) {}

  async exec(ctx: NotifyContext, alerts: Alert[]): Promise<StageResult> {
    const entry = deliveryEntry(this.nflog, this.receiver, ctx);
    await Promise.all([this.nflog.logEntry(entry), this.shared?.record(entry)]);
    return { ctx, alerts };
  }
}

/**
 * The notification log entry a successful notification of the flush makes: what fired and what
 * was resolved, expiring after twice the repeat interval (capped by the retention), as upstream.
 */
export function deliveryEntry(
  nflog: NotificationLog,
  receiver: ReceiverKey,
  ctx: NotifyContext,
): NflogEntry {
  if (!ctx.firing || !ctx.resolved) throw new Error('firing alerts missing');
  return nflog.entryFor(
    receiver,
    ctx.groupKey,
    ctx.firing,
    ctx.resolved,
    2 * ctx.repeatInterval,
    ctx.now,
  );
}
