import type { PostedAlert } from '../alerts/alert-ingest';
import type { RuleAlertNotification } from '../rules';
import { Labels } from '../tsdb/labels';

/**
 * Rule alerts as Prometheus's notifier sends them: the external labels added where the alert
 * does not set the label itself, then `alert_relabel_configs` (`relabel` returns undefined to
 * drop an alert).
 */
export function ruleAlertsToPosted(
  alerts: readonly RuleAlertNotification[],
  externalLabels: Readonly<Record<string, string>>,
  relabel: (labels: Labels) => Labels | undefined,
): PostedAlert[] {
  const out: PostedAlert[] = [];
  for (const alert of alerts) {
    const labels = relabel(Labels.fromRecord({ ...externalLabels, ...alert.labels.toRecord() }));
    if (labels === undefined) continue;
    out.push({
      labels: labels.toRecord(),
      annotations: { ...alert.annotations },
      startsAt: alert.startsAt,
      endsAt: alert.endsAt,
      generatorURL: alert.generatorUrl,
    });
  }
  return out;
}
