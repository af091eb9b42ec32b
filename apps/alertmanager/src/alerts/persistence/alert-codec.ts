import type { LabelSet } from '../../labels';
import type { Alert } from '../alert.model';
import { fingerprint } from '../fingerprint';

type AlertTuple = [LabelSet, LabelSet, number, number, number, string, 0 | 1];

/** A log record: alerts stored (after merging) or fingerprints removed by garbage collection. */
export type AlertRecord = { put: Alert[] } | { del: string[] };

// Positional tuples keep records about a third smaller than objects with field names.
function toTuple(a: Alert): AlertTuple {
  return [
    a.labels,
    a.annotations,
    a.startsAt,
    a.endsAt,
    a.updatedAt,
    a.generatorURL,
    a.timeout ? 1 : 0,
  ];
}

function fromTuple(t: AlertTuple): Alert {
  const [labels, annotations, startsAt, endsAt, updatedAt, generatorURL, timeout] = t;
  return {
    labels,
    annotations,
    startsAt,
    endsAt,
    updatedAt,
    generatorURL,
    timeout: timeout === 1,
    fingerprint: fingerprint(labels),
  };
}

/** Serialises a record as the payload of one frame. */
export function encodeRecord(record: AlertRecord): Buffer {
  const body = 'put' in record ? { p: record.put.map(toTuple) } : { d: record.del };
  return Buffer.from(JSON.stringify(body));
}

/** Reads a record back; throws on a payload that is not one (reported as corruption). */
export function decodeRecord(payload: Buffer): AlertRecord {
  const body = JSON.parse(payload.toString('utf8')) as { p?: AlertTuple[]; d?: string[] };
  if (Array.isArray(body.p)) return { put: body.p.map(fromTuple) };
  if (Array.isArray(body.d)) return { del: body.d };
  throw new Error('unknown record type');
}
