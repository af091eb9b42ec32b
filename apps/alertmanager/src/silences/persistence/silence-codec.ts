import { Matcher, type MatchType } from '../../labels';
import type { Silence } from '../silence';

type MatcherTuple = [MatchType, string, string];
type SilenceTuple = [string, MatcherTuple[], number, number, number, string, string];

/** A log record: silences as they now are, or ids removed by garbage collection. */
export type SilenceRecord = { put: Silence[] } | { del: string[] };

/** One silence as a positional tuple (the form records and the size limit use). */
export function toTuple(s: Silence): SilenceTuple {
  const matchers = s.matchers.map((m): MatcherTuple => [m.type, m.name, m.value]);
  return [s.id, matchers, s.startsAt, s.endsAt, s.updatedAt, s.createdBy, s.comment];
}

function fromTuple(t: SilenceTuple): Silence {
  const [id, matchers, startsAt, endsAt, updatedAt, createdBy, comment] = t;
  if (typeof id !== 'string' || !Array.isArray(matchers)) throw new Error('not a silence');
  return {
    id,
    matchers: matchers.map(([type, name, value]) => new Matcher(type, name, value)),
    startsAt,
    endsAt,
    updatedAt,
    createdBy,
    comment,
  };
}

/** The bytes a silence takes in a record, which `--silences.max-silence-size-bytes` limits. */
export function encodedSize(silence: Silence): number {
  return Buffer.byteLength(JSON.stringify(toTuple(silence)));
}

/** Serialises a record as the payload of one frame. */
export function encodeSilenceRecord(record: SilenceRecord): Buffer {
  const body = 'put' in record ? { p: record.put.map(toTuple) } : { d: record.del };
  return Buffer.from(JSON.stringify(body));
}

/** Reads a record back; throws on a payload that is not one (reported as corruption). */
export function decodeSilenceRecord(payload: Buffer): SilenceRecord {
  const body = JSON.parse(payload.toString('utf8')) as { p?: SilenceTuple[]; d?: string[] };
  if (Array.isArray(body.p)) return { put: body.p.map(fromTuple) };
  if (Array.isArray(body.d)) return { del: body.d };
  throw new Error('unknown record type');
}
