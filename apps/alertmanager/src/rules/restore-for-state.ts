import type { Labels } from '../tsdb/labels';
import type { AlertingRuleState } from './alerting-rule-state';
import type { LastSample } from './rule-queries';

/** How far back the `for` state is looked for, and the least time left to fire after a restart. */
export interface RestoreSettings {
  /** `--rules.alert.for-outage-tolerance`: a state older than this is not restored. */
  readonly outageToleranceMs: number;
  /** `--rules.alert.for-grace-period`: the least wait before firing after a restore. */
  readonly forGracePeriodMs: number;
}

/** Upstream's defaults: one hour of outage tolerated, ten minutes of grace. */
export const RESTORE_DEFAULTS: RestoreSettings = {
  outageToleranceMs: 60 * 60_000,
  forGracePeriodMs: 10 * 60_000,
};

/**
 * The `ALERTS_FOR_STATE` series of a rule's alerts that {@link restoreForState} reads, and the
 * range they are read over; none when the rule is not restored.
 */
export function forStateSeries(
  state: AlertingRuleState,
  nowMs: number,
  settings: RestoreSettings,
): { series: Labels[]; mint: number; maxt: number } {
  const series =
    state.forMs < settings.forGracePeriodMs
      ? []
      : state.alerts.map((alert) => state.forStateLabels(alert));
  return { series, mint: nowMs - settings.outageToleranceMs, maxt: nowMs };
}

/**
 * Gives the alerts of a rule back the `activeAt` they had before a restart, from the last sample
 * of each alert's `ALERTS_FOR_STATE` series (`last`, in the order of {@link forStateSeries}), as
 * upstream's `Group.RestoreForState`: the time an alert had spent pending when the server went
 * down still counts, the downtime does not, and an alert never fires sooner than the grace period
 * after the restore. Rules whose `for` is shorter than the grace period are not restored (waiting
 * the grace period would be longer than `for`). Marks the rule restored: from then on it writes
 * `ALERTS` series.
 */
export function restoreForState(
  state: AlertingRuleState,
  last: readonly (LastSample | undefined)[],
  nowMs: number,
  settings: RestoreSettings,
): void {
  const forMs = state.forMs;
  if (forMs < settings.forGracePeriodMs) {
    state.restored = true;
    return;
  }
  for (const [i, alert] of state.alerts.entries()) {
    const sample = last[i];
    if (sample === undefined || sample.stale) continue;
    // Upstream keeps whole seconds of both times.
    const downAt = Math.floor(sample.t / 1000) * 1000;
    let activeAt = Math.trunc(sample.v) * 1000;
    const remaining = forMs - (downAt - activeAt);
    // remaining <= 0: it was firing, and fires again at the next evaluation that still has it.
    if (remaining > 0 && remaining < settings.forGracePeriodMs) {
      activeAt = nowMs + settings.forGracePeriodMs - forMs;
    } else if (remaining > 0) {
      activeAt += nowMs - downAt;
    }
    alert.activeAt = activeAt;
  }
  state.restored = true;
}
