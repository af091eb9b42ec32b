import type { Alert } from '../../alerts/alert.model';
import type { ReceiverKey } from '../nflog-entry';
import type { NotificationLog } from '../notification-log';
import type { NotifyContext } from '../notify-context';
import type { SharedDeliveries } from '../shared-deliveries';
import type { Stage, StageResult } from '../stage';
import { deliveryEntry } from './set-notifies.stage';

/**
 * In a cluster, records in the replicas' shared record, before `send` (retry and set-notifies)
 * runs, the entry a successful send will record. The receiver may have the notification before
 * its record reaches Redis; a replica that dies in between leaves the attempt, and the others'
 * catch-up stage takes it as delivered when nothing fires any more. Without it they would know
 * of no firing notification of the group, and dedup (upstream's rule: a resolution only follows
 * a firing notification) would never send its resolution. A send that fails here takes its
 * attempt back before the claim stage gives the claim back, so no replica later resolves a
 * firing notification that was never delivered.
 */
export class AttemptStage implements Stage {
  constructor(
    private readonly shared: SharedDeliveries,
    private readonly nflog: NotificationLog,
    private readonly receiver: ReceiverKey,
    private readonly send: Stage,
  ) {}

  async exec(ctx: NotifyContext, alerts: Alert[]): Promise<StageResult> {
    const entry = deliveryEntry(this.nflog, this.receiver, ctx);
    await this.shared.attempt(entry);
    try {
      return await this.send.exec(ctx, alerts);
    } catch (error) {
      await this.shared.withdraw(entry);
      throw error;
    }
  }
}
