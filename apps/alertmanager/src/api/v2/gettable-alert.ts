import type { Alert } from '../../alerts/alert.model';
import type { AlertStatus } from '../../alerts/alert-status';

/** RFC 3339 with milliseconds in UTC, as upstream prints times (Go's zero time included). */
export function formatTime(ms: number): string {
  let text = recentTimes.get(ms);
  if (text === undefined) {
    if (recentTimes.size >= 4096) recentTimes.clear();
    text = new Date(ms).toISOString();
    recentTimes.set(ms, text);
  }
  return text;
}

// Alerts of one batch share their times to the millisecond, so a small cache saves most of the
// date formatting when listing many alerts.
const recentTimes = new Map<number, string>();

const ACTIVE_STATUS = '{"inhibitedBy":[],"mutedBy":[],"silencedBy":[],"state":"active"}';

/** The `status` object; `mutedBy` (time intervals, HEAD) is required by the spec and empty here. */
export function statusJson(status: AlertStatus): string {
  if (
    status.state === 'active' &&
    status.silencedBy.length === 0 &&
    status.inhibitedBy.length === 0
  ) {
    return ACTIVE_STATUS;
  }
  const inhibited = JSON.stringify(status.inhibitedBy);
  const silenced = JSON.stringify(status.silencedBy);
  return `{"inhibitedBy":${inhibited},"mutedBy":[],"silencedBy":${silenced},"state":"${status.state}"}`;
}

/** `[{"name":"a"},...]` for a list of receiver names. */
export function receiversJson(names: readonly string[]): string {
  return `[${names.map((name) => `{"name":${JSON.stringify(name)}}`).join(',')}]`;
}

/**
 * One gettableAlert as JSON text, fields in upstream's order; `generatorURL` is left out when
 * empty. Labels and annotations print in key order, which ingestion keeps sorted as Go prints maps.
 */
export function gettableAlertJson(alert: Alert, receivers: string, status: string): string {
  const url =
    alert.generatorURL === '' ? '' : `,"generatorURL":${JSON.stringify(alert.generatorURL)}`;
  return (
    `{"annotations":${JSON.stringify(alert.annotations)},"endsAt":"${formatTime(alert.endsAt)}",` +
    `"fingerprint":"${alert.fingerprint}","receivers":${receivers},` +
    `"startsAt":"${formatTime(alert.startsAt)}","status":${status},` +
    `"updatedAt":"${formatTime(alert.updatedAt)}"${url},"labels":${JSON.stringify(alert.labels)}}`
  );
}
