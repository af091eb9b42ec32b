import { GoFloat, GoList, GoMap, GoStruct, type Value } from '../exec/values';
import { formatTime } from './go-time';

/** Go's JSON names of upstream's template structs. */
const JSON_NAMES: Record<string, string> = {
  Status: 'status',
  Labels: 'labels',
  Annotations: 'annotations',
  StartsAt: 'startsAt',
  EndsAt: 'endsAt',
  GeneratorURL: 'generatorURL',
  Fingerprint: 'fingerprint',
  Receiver: 'receiver',
  Alerts: 'alerts',
  GroupLabels: 'groupLabels',
  CommonLabels: 'commonLabels',
  CommonAnnotations: 'commonAnnotations',
  ExternalURL: 'externalURL',
};

/** A value as Go's `encoding/json` sees it: maps sorted, structs with their JSON names. */
function plain(v: Value): unknown {
  if (v === undefined) return null;
  if (v instanceof GoFloat) return v.value;
  if (v instanceof GoMap) {
    return Object.fromEntries(v.sortedKeys().map((k) => [k, plain(v.entries.get(k))]));
  }
  if (v instanceof GoList) return v.items.map(plain);
  if (Array.isArray(v)) return v.map(plain);
  if (v instanceof GoStruct) {
    const raw = v.raw as { time?: number; duration?: number } | undefined;
    if (raw?.time !== undefined) return formatTime(raw.time, '2006-01-02T15:04:05.999999999Z07:00');
    if (raw?.duration !== undefined) return raw.duration * 1e6;
    return Object.fromEntries(
      Object.entries(v.fields).map(([k, f]) => [JSON_NAMES[k] ?? k, plain(f)]),
    );
  }
  return v;
}

/** Go's `json.Marshal` of a template value, with its HTML-safe escapes. */
export function toJson(v: Value): string {
  return JSON.stringify(plain(v))
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
