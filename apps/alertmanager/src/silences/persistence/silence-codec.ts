import { Matcher, type MatchType } from '../../labels';
import type { TupleCodec } from '../../storage';
import type { Silence } from '../silence';

type MatcherTuple = [MatchType, string, string];
type SilenceTuple = [string, MatcherTuple[], number, number, number, string, string];

/** One silence as a positional tuple (the form records and the size limit use). */
function toTuple(s: Silence): SilenceTuple {
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

/** How a silence is written in the silence journal's records. */
export const SILENCE_CODEC: TupleCodec<Silence, SilenceTuple> = { toTuple, fromTuple };
