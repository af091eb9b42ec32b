import { isResolvedAt, type Alert } from '../../alerts/alert.model';
import { dedupDecision } from '../dedup-decision';
import type { ReceiverKey } from '../nflog-entry';
import type { NotificationLog } from '../notification-log';
import type { NotifyContext } from '../notify-context';
import type { Stage, StageResult } from '../stage';

/**
 * Lets a batch through only when the notification log says the integration has not been told
 * yet (see {@link dedupDecision}). It puts the firing and resolved fingerprints and the reason
 * into the context for the retry and set-notifies stages.
 */
export class DedupStage implements Stage {
  constructor(
    private readonly nflog: NotificationLog,
    private readonly receiver: ReceiverKey,
    private readonly sendResolved: boolean,
  ) {}

  async exec(ctx: NotifyContext, alerts: Alert[]): Promise<StageResult> {
    const firing: string[] = [];
    const resolved: string[] = [];
    for (const alert of alerts) {
      (isResolvedAt(alert, ctx.now) ? resolved : firing).push(alert.fingerprint);
    }
    const last = this.nflog.query(ctx.groupKey, this.receiver);
    const reason = dedupDecision(last, {
      firing: new Set(firing),
      resolved: new Set(resolved),
      sendResolved: this.sendResolved,
      repeatInterval: ctx.repeatInterval,
      now: ctx.now,
    });
    const next: NotifyContext = {
      ...ctx,
      firing,
      resolved,
      reason,
      sendResolved: this.sendResolved,
      previousNotification: last?.timestamp,
    };
    return { ctx: next, alerts: reason ? alerts : [] };
  }
}
