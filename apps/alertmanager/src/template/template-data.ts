import { isResolvedAt, type Alert } from '../alerts/alert.model';
import type { LabelSet } from '../labels';
import { goTime } from './funcs/go-time';
import { GoList, GoMap, GoStruct, listItems, stringList, type Value } from './exec/values';

/** Go's `regexp.QuoteMeta`; upstream passes the receiver name through it (a known quirk). */
export function quoteMeta(text: string): string {
  return text.replace(/[\\.+*?()|[\]{}^$]/g, '\\$&');
}

/** Upstream's `SortedPairs` order: `alertname` first, then the other names sorted. */
function sortedNames(map: LabelSet): string[] {
  const names = Object.keys(map)
    .filter((n) => n !== 'alertname')
    .sort();
  return 'alertname' in map ? ['alertname', ...names] : names;
}

function pairs(map: LabelSet): GoList {
  const names = sortedNames(map);
  const items = names.map((n) => new GoStruct('template.Pair', { Name: n, Value: map[n] }));
  return new GoList(items, 'template.Pairs', {
    Names: () => stringList(names),
    Values: () => stringList(names.map((n) => map[n])),
  });
}

/** A label or annotation set as upstream's `template.KV`, with its methods. */
export function kv(map: LabelSet): GoMap {
  return new GoMap(
    new Map(Object.entries(map)),
    'template.KV',
    {
      SortedPairs: () => pairs(map),
      Names: () => stringList(sortedNames(map)),
      Values: () => stringList(sortedNames(map).map((n) => map[n])),
      Remove: ([keys]) => {
        const drop = new Set(listItems(keys) ?? []);
        return kv(Object.fromEntries(Object.entries(map).filter(([k]) => !drop.has(k))));
      },
    },
    '',
  );
}

/** One alert as upstream's `template.Alert`. */
function alertValue(alert: Alert, now: number): GoStruct {
  return new GoStruct('template.Alert', {
    Status: isResolvedAt(alert, now) ? 'resolved' : 'firing',
    Labels: kv(alert.labels),
    Annotations: kv(alert.annotations),
    StartsAt: goTime(alert.startsAt),
    EndsAt: goTime(alert.endsAt),
    GeneratorURL: alert.generatorURL,
    Fingerprint: alert.fingerprint,
  });
}

/** A list of alerts as upstream's `template.Alerts`, with `Firing` and `Resolved`. */
export function alertList(items: readonly GoStruct[]): GoList {
  const byStatus = (status: string) => alertList(items.filter((a) => a.fields.Status === status));
  return new GoList(items, 'template.Alerts', {
    Firing: () => byStatus('firing'),
    Resolved: () => byStatus('resolved'),
  });
}

function common(maps: readonly LabelSet[]): Record<string, string> {
  if (maps.length === 0) return {};
  const [first, ...rest] = maps;
  return Object.fromEntries(
    Object.entries(first).filter(([k, v]) => rest.every((m) => m[k] === v)),
  );
}

/** What a notification's template data is built from. */
export interface TemplateDataInput {
  receiver: string;
  groupLabels: LabelSet;
  alerts: readonly Alert[];
  externalURL: string;
  /** The flush time: decides which alerts are resolved. */
  now: number;
}

/**
 * Upstream's `template.Data`: `Receiver` (QuoteMeta'd), `Status`, `Alerts`, `GroupLabels`,
 * `CommonLabels`, `CommonAnnotations`, `ExternalURL`.
 */
export function templateData(input: TemplateDataInput): GoStruct {
  const alerts = input.alerts.map((a) => alertValue(a, input.now));
  const firing = alerts.some((a) => a.fields.Status === 'firing');
  const fields: Record<string, Value> = {
    Receiver: quoteMeta(input.receiver),
    Status: firing ? 'firing' : 'resolved',
    Alerts: alertList(alerts),
    GroupLabels: kv(input.groupLabels),
    CommonLabels: kv(common(input.alerts.map((a) => a.labels))),
    CommonAnnotations: kv(common(input.alerts.map((a) => a.annotations))),
    ExternalURL: input.externalURL,
  };
  return new GoStruct('template.Data', fields);
}
