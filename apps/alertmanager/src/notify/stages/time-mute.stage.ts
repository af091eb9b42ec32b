import type { Alert } from '../../alerts/alert.model';
import type { TimeIntervalSet } from '../../timeinterval';
import type { NotifyContext } from '../notify-context';
import type { Stage, StageResult } from '../stage';

/** Drops the whole batch while any of the route's `mute_time_intervals` is active. */
export class TimeMuteStage implements Stage {
  constructor(private readonly intervals: TimeIntervalSet) {}

  async exec(ctx: NotifyContext, alerts: Alert[]): Promise<StageResult> {
    const names = ctx.muteTimeIntervals;
    if (names.length > 0 && this.intervals.activeAmong(names, ctx.now).length > 0) {
      return { ctx, alerts: [] };
    }
    return { ctx, alerts };
  }
}
