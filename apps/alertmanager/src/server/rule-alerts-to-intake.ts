import type { PostedAlert } from '../alerts/alert-ingest';
import type { RuleAlertNotification } from '../rules';

/**
 * Rule alerts as the dispatcher takes them, the way Prometheus's notifier sends them: the
 * external labels added where the alert does not set the label itself.
 */
export function ruleAlertsToPosted(
  alerts: readonly RuleAlertNotification[],
  externalLabels: Readonly<Record<string, string>>,
): PostedAlert[] {
  return alerts.map((alert) => ({
    labels: { ...externalLabels, ...alert.labels.toRecord() },
    annotations: { ...alert.annotations },
    startsAt: alert.startsAt,
    endsAt: alert.endsAt,
    generatorURL: alert.generatorUrl,
  }));
}
