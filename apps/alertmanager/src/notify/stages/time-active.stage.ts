import type { Alert } from '../../alerts/alert.model';
import type { TimeIntervalSet } from '../../timeinterval';
import type { NotifyContext } from '../notify-context';
import type { Stage, StageResult } from '../stage';

/**
 * Drops the whole batch when the route has `active_time_intervals` and none is active at the
 * flush time. Routes without them always pass.
 */
export class TimeActiveStage implements Stage {
  constructor(private readonly intervals: TimeIntervalSet) {}

  async exec(ctx: NotifyContext, alerts: Alert[]): Promise<StageResult> {
    const names = ctx.activeTimeIntervals;
    if (names.length === 0 || this.intervals.activeAmong(names, ctx.now).length > 0) {
      return { ctx, alerts };
    }
    return { ctx, alerts: [] };
  }
}
