import type { Queryable, SeriesMatcher } from '../tsdb/queryable';
import type { AlertingRuleState } from './alerting-rule-state';

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
 * Gives the alerts of a rule back the `activeAt` they had before a restart, from the
 * `ALERTS_FOR_STATE` series in the store, as upstream's `Group.RestoreForState`: the time an
 * alert had spent pending when the server went down still counts, the downtime does not, and an
 * alert never fires sooner than the grace period after the restore. Rules whose `for` is shorter
 * than the grace period are not restored (waiting the grace period would be longer than `for`).
 * Marks the rule restored: from then on it writes `ALERTS` series.
 */
export function restoreForState(
  state: AlertingRuleState,
  store: Queryable,
  nowMs: number,
  settings: RestoreSettings,
): void {
  const forMs = state.forMs;
  if (forMs < settings.forGracePeriodMs) {
    state.restored = true;
    return;
  }
  const querier = store.querier(nowMs - settings.outageToleranceMs, nowMs);
  for (const alert of state.alerts) {
    const labels = state.forStateLabels(alert);
    const matchers: SeriesMatcher[] = labels.names.map((name, i) => {
      const value = labels.values[i];
      return { name, type: '=', value, matches: (v) => v === value };
    });
    const series = querier.select(matchers).find((s) => s.labels.size === labels.size);
    if (series === undefined) continue;
    const run = series.samples(nowMs - settings.outageToleranceMs, nowMs);
    const last = run.t.length - 1;
    if (last < 0 || run.stale?.[last]) continue;
    // Upstream keeps whole seconds of both times.
    const downAt = Math.floor(run.t[last] / 1000) * 1000;
    let activeAt = Math.trunc(run.v[last]) * 1000;
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
