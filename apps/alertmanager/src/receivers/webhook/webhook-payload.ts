import { isResolvedAt, type Alert } from '../../alerts/alert.model';
import type { LabelSet } from '../../labels';

/** One alert of a webhook payload (upstream `template.Alert`), keys in upstream's order. */
export interface WebhookAlert {
  status: 'firing' | 'resolved';
  labels: Record<string, string>;
  annotations: Record<string, string>;
  startsAt: string;
  endsAt: string;
  generatorURL: string;
  fingerprint: string;
}

/** The webhook body, version 4: upstream's `template.Data` plus three fields, in its key order. */
export interface WebhookMessage {
  receiver: string;
  status: 'firing' | 'resolved';
  alerts: WebhookAlert[];
  groupLabels: Record<string, string>;
  commonLabels: Record<string, string>;
  commonAnnotations: Record<string, string>;
  externalURL: string;
  version: '4';
  groupKey: string;
  truncatedAlerts: number;
}

/** What the payload is built from. */
export interface WebhookPayloadInput {
  receiver: string;
  groupKey: string;
  groupLabels: LabelSet;
  externalURL: string;
  /** In notification order, firing ones with `endsAt` 0 (the dispatcher's snapshot). */
  alerts: readonly Alert[];
  /** 0 means no limit. */
  maxAlerts: number;
  now: number;
}

/** Go's `regexp.QuoteMeta`; upstream passes the receiver name through it (a known quirk). */
export function quoteMeta(text: string): string {
  return text.replace(/[\\.+*?()|[\]{}^$]/g, '\\$&');
}

/**
 * A time as Go's JSON encoding prints it (RFC 3339 with up to nanoseconds, trailing zeros
 * dropped, `Z`); Go's zero time prints as `0001-01-01T00:00:00Z`.
 */
export function formatGoTime(ms: number): string {
  return new Date(ms)
    .toISOString()
    .replace(/\.(\d*?)0*Z$/, (_m, f: string) => (f ? `.${f}Z` : 'Z'));
}

/** A copy with keys sorted, because Go encodes maps with sorted keys. */
function sortedMap(labels: LabelSet): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of Object.keys(labels).sort()) out[name] = labels[name];
  return out;
}

/** The labels every alert has with the same value (upstream's commonLabels/Annotations). */
function common(maps: readonly LabelSet[]): Record<string, string> {
  if (maps.length === 0) return {};
  const [first, ...rest] = maps;
  const shared: Record<string, string> = {};
  for (const name of Object.keys(first)) {
    if (rest.every((map) => map[name] === first[name])) shared[name] = first[name];
  }
  return sortedMap(shared);
}

/**
 * Builds the version 4 webhook payload. With `max_alerts`, only the first alerts are sent and
 * `truncatedAlerts` counts the rest; status and common labels describe the alerts sent.
 */
export function buildWebhookPayload(input: WebhookPayloadInput): WebhookMessage {
  const limit = input.maxAlerts > 0 ? input.maxAlerts : input.alerts.length;
  const sent = input.alerts.slice(0, limit);
  const alerts = sent.map((a): WebhookAlert => ({
    status: isResolvedAt(a, input.now) ? 'resolved' : 'firing',
    labels: sortedMap(a.labels),
    annotations: sortedMap(a.annotations),
    startsAt: formatGoTime(a.startsAt),
    endsAt: formatGoTime(a.endsAt),
    generatorURL: a.generatorURL,
    fingerprint: a.fingerprint,
  }));
  return {
    receiver: quoteMeta(input.receiver),
    status: alerts.some((a) => a.status === 'firing') ? 'firing' : 'resolved',
    alerts,
    groupLabels: sortedMap(input.groupLabels),
    commonLabels: common(sent.map((a) => a.labels)),
    commonAnnotations: common(sent.map((a) => a.annotations)),
    externalURL: input.externalURL,
    version: '4',
    groupKey: input.groupKey,
    truncatedAlerts: input.alerts.length - sent.length,
  };
}
