import type { AlertStore } from '../../alerts/alert-store';
import type { Alert } from '../../alerts/alert.model';
import { alertStatus, type AlertMuting, type AlertStatus } from '../../alerts/alert-status';
import type { LabelSet } from '../../labels';
import type { Clock } from '../../time/clock';
import { nextTurn } from '../../time/next-turn';

/** Alerts checked for a listing between two turns of the event loop. */
const LIST_SLICE = 2000;
import { matchesFilter, receiverPasses, type AlertQuery } from './alert-query';
import type { AlertGroupView, AlertRouting } from '../../alerting/alert-routing';
import { gettableAlertJson, receiversJson, statusJson } from './gettable-alert';
import { GO_ZERO_TIME } from '../../time/go-zero-time';
import { sortInSlices } from './sort-in-slices';

/** What {@link AlertsApi} is built from; functions are read per request so reloads apply. */
export interface AlertsApiDeps {
  store: AlertStore;
  routing: Pick<AlertRouting, 'receiversFor' | 'groups'>;
  muting: AlertMuting;
  clock: Clock;
  /** Each receiver's labels, by name, from the running configuration. */
  receiverLabels: () => ReadonlyMap<string, LabelSet>;
}

interface Selected {
  alert: Alert;
  receivers: string[];
  status: AlertStatus;
}

/**
 * The logic behind API v2's alert listings, free of HTTP: selecting alerts or groups for a query,
 * then printing them as JSON pieces to stream.
 */
export class AlertsApi {
  constructor(private readonly deps: AlertsApiDeps) {}

  /**
   * `GET /api/v2/alerts`: unresolved alerts passing the query, sorted by fingerprint, as JSON
   * pieces to stream. The alerts are checked in slices with a turn of the event loop between
   * them, so a listing of a large store never holds the server up.
   */
  async alerts(query: AlertQuery): Promise<Iterable<string>> {
    const now = this.deps.clock.now();
    const selected: Selected[] = [];
    const receiverLabels = this.deps.receiverLabels();
    let checked = 0;
    for (const alert of [...this.deps.store.list()]) {
      if (++checked % LIST_SLICE === 0) await nextTurn();
      // Label filters first: they are cheap and usually narrow the set the most.
      if (!matchesFilter(query.matchers, alert.labels)) continue;
      if (isResolvedBefore(alert, now)) continue;
      const receivers = this.deps.routing.receiversFor(alert.labels);
      if (query.receiver && !receivers.some((r) => query.receiver?.matches(r))) continue;
      if (!receivers.some((r) => receiverPasses(query.receiverMatchers, receiverLabels, r))) {
        continue;
      }
      const status = alertStatus(this.deps.muting, alert.labels, now);
      if (passesStatus(query, status)) selected.push({ alert, receivers, status });
    }
    const sorted = await sortInSlices(selected, byFingerprint, nextTurn);
    return jsonArray(sorted, alertPiece(new Map()));
  }

  /**
   * `GET /api/v2/alerts/groups`: each group with its alerts passing the query; empty groups
   * dropped. Checked in slices, as {@link alerts}.
   */
  async groups(query: AlertQuery): Promise<Iterable<string>> {
    const now = this.deps.clock.now();
    const receiversOf = new Map<string, string[]>();
    const chosen: Array<{ group: AlertGroupView; alerts: Selected[] }> = [];
    const receiverLabels = this.deps.receiverLabels();
    let checked = 0;
    for (const group of this.deps.routing.groups()) {
      if (query.receiver && !query.receiver.matches(group.receiver)) continue;
      if (!receiverPasses(query.receiverMatchers, receiverLabels, group.receiver)) continue;
      const alerts: Selected[] = [];
      for (const alert of group.alerts) {
        if (++checked % LIST_SLICE === 0) await nextTurn();
        if (!matchesFilter(query.matchers, alert.labels)) continue;
        if (isResolvedBefore(alert, now)) continue;
        const status = alertStatus(this.deps.muting, alert.labels, now);
        if (!passesStatus(query, status)) continue;
        let receivers = receiversOf.get(alert.fingerprint);
        if (!receivers) {
          receivers = this.deps.routing.receiversFor(alert.labels);
          receiversOf.set(alert.fingerprint, receivers);
        }
        alerts.push({ alert, receivers, status });
      }
      if (alerts.length === 0) continue;
      if (!query.muted && alerts.every((s) => s.status.state === 'suppressed')) continue;
      chosen.push({ group, alerts });
    }
    return groupPieces(chosen);
  }
}

// The API lists an alert until the instant it resolves, inclusive.
const isResolvedBefore = (alert: Alert, now: number) =>
  alert.endsAt !== GO_ZERO_TIME && alert.endsAt < now;

const byFingerprint = (a: Selected, b: Selected) =>
  a.alert.fingerprint < b.alert.fingerprint
    ? -1
    : a.alert.fingerprint > b.alert.fingerprint
      ? 1
      : 0;

function passesStatus(query: AlertQuery, status: AlertStatus): boolean {
  if (!query.active && status.state === 'active') return false;
  if (!query.unprocessed && status.state === 'unprocessed') return false;
  if (!query.silenced && status.silencedBy.length > 0) return false;
  if (!query.inhibited && status.inhibitedBy.length > 0) return false;
  return true;
}

// Many alerts share a receiver list: print each distinct list once per request.
function alertPiece(cache: Map<string, string>): (s: Selected) => string {
  return ({ alert, receivers, status }) => {
    const key = receivers.length === 1 ? receivers[0] : receivers.join('\u0000');
    let json = cache.get(key);
    if (json === undefined) {
      json = receiversJson(receivers);
      cache.set(key, json);
    }
    return gettableAlertJson(alert, json, statusJson(status));
  };
}

function* jsonArray<T>(
  items: readonly T[],
  print: (item: T) => string,
  close = ']\n',
): Generator<string> {
  yield '[';
  for (let i = 0; i < items.length; i++) yield i === 0 ? print(items[i]) : `,${print(items[i])}`;
  yield close;
}

/** Labels with keys in sorted order, as Go prints maps. */
function sortedLabelsJson(labels: LabelSet): string {
  const names = Object.keys(labels).sort();
  return `{${names.map((n) => `${JSON.stringify(n)}:${JSON.stringify(labels[n])}`).join(',')}}`;
}

function* groupPieces(
  chosen: Array<{ group: AlertGroupView; alerts: Selected[] }>,
): Generator<string> {
  const print = alertPiece(new Map());
  yield '[';
  for (const [i, { group, alerts }] of chosen.entries()) {
    yield i === 0 ? '{"alerts":' : ',{"alerts":';
    yield* jsonArray(alerts, print, ']');
    yield (
      `,"labels":${sortedLabelsJson(group.labels)},"receiver":{"name":${JSON.stringify(group.receiver)}},` +
      `"routeLabels":${sortedLabelsJson(group.routeLabels ?? {})}}`
    );
  }
  yield ']\n';
}
