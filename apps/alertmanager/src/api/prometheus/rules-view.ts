import type { RuleAlert, RuleGroupRunner } from '../../rules';
import { formatFloat } from '../../template/funcs/go-float';
import { formatRfc3339Nano } from '../../time/go-date-time';
import { GO_ZERO_TIME } from '../../time/go-zero-time';
import { invalidParam } from './prometheus-reply';

/** An alert as `/api/v1/rules` and `/api/v1/alerts` show it. */
export interface AlertView {
  labels: Record<string, string>;
  annotations: Record<string, string>;
  state: string;
  activeAt: string;
  keepFiringSince?: string;
  value: string;
}

/** Which rules `/api/v1/rules` lists, from its `type` parameter. */
export function ruleTypeFilter(type: string | null): { alerting: boolean; recording: boolean } {
  const typ = (type ?? '').toLowerCase();
  if (typ !== '' && typ !== 'alert' && typ !== 'record') {
    throw invalidParam('type', `not supported value ${JSON.stringify(typ)}`);
  }
  return { alerting: typ !== 'record', recording: typ !== 'alert' };
}

/** The `data` of `/api/v1/rules`: every group with its rules in file order, as Prometheus shows them. */
export function rulesView(
  groups: readonly RuleGroupRunner[],
  filter: { alerting: boolean; recording: boolean },
): { groups: unknown[] } {
  return {
    groups: groups.map((runner) => {
      const { group } = runner.evaluator;
      const rules: unknown[] = [];
      for (const { rule, status, state } of runner.evaluator.rules) {
        const common = {
          health: status.health,
          ...(status.lastError === '' ? {} : { lastError: status.lastError }),
          evaluationTime: status.durationMs / 1000,
          lastEvaluation: timeOrZero(status.lastEvaluation),
        };
        if (rule.kind === 'alerting' && filter.alerting) {
          rules.push({
            state: state?.state ?? 'inactive',
            name: rule.alert,
            query: rule.query,
            duration: rule.forMs / 1000,
            keepFiringFor: rule.keepFiringForMs / 1000,
            labels: sorted({ ...group.labels, ...rule.labels }),
            annotations: sorted(rule.annotations),
            alerts: (state?.alerts ?? []).filter((a) => a.state !== 'inactive').map(alertView),
            ...common,
            type: 'alerting',
          });
        } else if (rule.kind === 'recording' && filter.recording) {
          const labels = { ...group.labels, ...rule.labels };
          rules.push({
            name: rule.record,
            query: rule.query,
            ...(Object.keys(labels).length === 0 ? {} : { labels: sorted(labels) }),
            ...common,
            type: 'recording',
          });
        }
      }
      return {
        name: group.name,
        file: runner.file,
        rules,
        interval: runner.intervalMs / 1000,
        limit: group.limit,
        evaluationTime: runner.lastDurationMs / 1000,
        lastEvaluation: timeOrZero(runner.lastEvaluation),
      };
    }),
  };
}

/** The `data` of `/api/v1/alerts`: the active alerts of every alerting rule. */
export function alertsView(groups: readonly RuleGroupRunner[]): { alerts: AlertView[] } {
  const alerts: AlertView[] = [];
  for (const runner of groups) {
    for (const { state } of runner.evaluator.rules) {
      for (const alert of state?.alerts ?? [])
        if (alert.state !== 'inactive') alerts.push(alertView(alert));
    }
  }
  return { alerts };
}

function alertView(alert: RuleAlert): AlertView {
  return {
    labels: alert.labels.toRecord(),
    annotations: sorted(alert.annotations),
    state: alert.state,
    activeAt: formatRfc3339Nano(alert.activeAt),
    ...(alert.keepFiringSince === 0
      ? {}
      : { keepFiringSince: formatRfc3339Nano(alert.keepFiringSince) }),
    value: formatFloat(alert.value, 'e', -1),
  };
}

/** Go's zero time for "never", as an unset `time.Time` marshals. */
function timeOrZero(ms: number): string {
  return formatRfc3339Nano(ms === 0 ? GO_ZERO_TIME : ms);
}

/** Labels marshal as a JSON object with sorted keys. */
function sorted(record: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
}
