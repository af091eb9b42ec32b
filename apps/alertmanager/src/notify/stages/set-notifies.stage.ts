import type { Alert } from '../../alerts/alert.model';
import type { ReceiverKey } from '../nflog-entry';
import type { NotificationLog } from '../notification-log';
import type { NotifyContext } from '../notify-context';
import type { Stage, StageResult } from '../stage';

/**
 * Records a successful notification in the notification log: what fired and what was resolved,
 * expiring after twice the repeat interval (capped by the retention), as upstream.
 */
export class SetNotifiesStage implements Stage {
  constructor(
    private readonly nflog: NotificationLog,
    private readonly receiver: ReceiverKey,
  ) {}

  async exec(ctx: NotifyContext, alerts: Alert[]): Promise<StageResult> {
    if (!ctx.firing || !ctx.resolved) throw new Error('firing alerts missing');
    await this.nflog.log(
      this.receiver,
      ctx.groupKey,
      ctx.firing,
      ctx.resolved,
      2 * ctx.repeatInterval,
      ctx.now,
    );
    return { ctx, alerts };
  }
}
