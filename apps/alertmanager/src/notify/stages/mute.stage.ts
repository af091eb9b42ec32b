import type { Logger } from '../../logging/logger';
import type { Muter } from '../../labels/muter';
import type { Stage, StageResult } from '../stage';
import type { NotifyContext } from '../notify-context';
import type { Alert } from '../../alerts/alert.model';

/**
 * Drops the alerts a {@link Muter} mutes at the flush time: the inhibitor, and the silences.
 * As upstream, muted resolved alerts are dropped too, so the resolution of an alert that got
 * silenced is never sent.
 */
export class MuteStage implements Stage {
  constructor(
    private readonly muter: Muter,
    private readonly logger: Logger,
  ) {}

  async exec(ctx: NotifyContext, alerts: Alert[]): Promise<StageResult> {
    const kept = alerts.filter((a) => this.muter.mutedBy(a.labels, ctx.now).length === 0);
    if (kept.length < alerts.length) {
      this.logger.debug('Notifications will not be sent for muted alerts', {
        receiver: ctx.receiver,
        groupKey: ctx.groupKey,
        muted: alerts.length - kept.length,
      });
    }
    return { ctx, alerts: kept };
  }
}
