import { isResolvedAt, type Alert } from '../../alerts/alert.model';
import type { Logger } from '../../logging/logger';
import type { NflogEntry, ReceiverKey } from '../nflog-entry';
import type { NotificationLog } from '../notification-log';
import type { NotifyContext } from '../notify-context';
import type { SharedDeliveries } from '../shared-deliveries';
import type { Stage, StageResult } from '../stage';

/**
 * In a cluster, brings the notification log's entry of the group for this integration up to
 * date before the dedup stage reads it: the latest delivery any replica recorded is merged in
 * with upstream's rule (the later notification wins, an expired one is ignored). A replica thus
 * decides on what every replica sent, even one that died before its notification log entry
 * reached the stream, and a replica started again does so from its first flush.
 *
 * It then hands on as resolved, for this flush, each alert that fires here although that entry
 * lists it as resolved and this replica last received it before the entry's notification. Such
 * an alert is stale: its resolution reached another replica, which notified it, while this one
 * was down; this one keeps the alert firing in its store on disk until Prometheus posts it
 * again, at its next resend. Left firing, it would make dedup send the group's firing
 * notification once more. Resolved, it is already notified as such in the entry, so dedup
 * repeats nothing, and a notification sent for other alerts lists it as resolved, which keeps
 * it in the next entry's resolved set and so stale at later flushes too. An alert received
 * after that notification fired again and stays firing. Upstream keeps no alerts across a
 * restart and never meets the case. Like the merge rule, the comparison of this replica's
 * receive time with another replica's notification time assumes their clocks agree.
 *
 * An attempt later than the record (a replica claimed and sent, and may have died before its
 * record came) is merged only when nothing fires in the flush: then it lets dedup send the
 * resolution of what the attempt fired, which would otherwise never be sent, the receiver
 * showing those alerts firing for good. A receiver that never got the firing notification gets
 * a resolution it can ignore. While something fires, the attempt is left out: dedup then
 * decides on the record, and a firing notification whose sender died mid-send is sent again by
 * the replica claiming it once the claim lapses, rather than never.
 */
export class CatchUpStage implements Stage {
  constructor(
    private readonly shared: SharedDeliveries,
    private readonly nflog: NotificationLog,
    private readonly receiver: ReceiverKey,
    private readonly logger: Logger,
  ) {}

  async exec(ctx: NotifyContext, alerts: Alert[]): Promise<StageResult> {
    const latest = await this.shared.latest(ctx.groupKey, this.receiver);
    const entry = latest && (!latest.attempt || this.nothingFires(ctx, alerts)) && latest.entry;
    if (entry && entry.expiresAt > ctx.now) {
      // The merged entry is in memory at once; a failed write to disk is kept for the next.
      await this.nflog.merge(entry).catch((error: unknown) =>
        this.logger.warn('Keeping a delivery of the cluster on disk failed', {
          group: ctx.groupKey,
          err: error instanceof Error ? error.message : String(error),
        }),
      );
    }
    // The entry dedup reads: the later of the cluster's and this log's.
    const last = this.nflog.query(ctx.groupKey, this.receiver);
    return { ctx, alerts: last ? this.resolveStale(ctx, alerts, last) : alerts };
  }

  private nothingFires(ctx: NotifyContext, alerts: Alert[]): boolean {
    return alerts.every((alert) => isResolvedAt(alert, ctx.now));
  }

  /**
   * The alerts with each stale one (see the class) ended at the notification of its resolution,
   * or at the flush when another replica's clock puts that notification later.
   */
  private resolveStale(ctx: NotifyContext, alerts: Alert[], last: NflogEntry): Alert[] {
    if (last.resolvedAlerts.length === 0) return alerts;
    const resolved = new Set(last.resolvedAlerts);
    const endsAt = Math.min(last.timestamp, ctx.now);
    let stale = 0;
    const handed = alerts.map((alert) => {
      if (
        !resolved.has(alert.fingerprint) ||
        alert.updatedAt >= last.timestamp ||
        isResolvedAt(alert, ctx.now)
      ) {
        return alert;
      }
      stale++;
      return { ...alert, endsAt };
    });
    if (stale === 0) return alerts;
    this.logger.debug('Alerts another replica has since notified as resolved count as resolved', {
      group: ctx.groupKey,
      alerts: stale,
      notified: new Date(last.timestamp).toISOString(),
    });
    return handed;
  }
}
