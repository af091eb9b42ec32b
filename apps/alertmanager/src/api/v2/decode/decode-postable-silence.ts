import type { MatcherInput } from '../../../silences';
import { GoDecodeError, parseJsonAsGo } from '../../json/parse-json-as-go';
import type { BodyRejection } from './decode-postable-alerts';
import { isBlank, type Body } from '../../json/go-json-syntax';
import { goTimeParseError, parseDateTime } from '../../../time/go-date-time';

type Json = ReturnType<typeof parseJsonAsGo>;
type JsonObject = { [key: string]: Json };

/** A postableSilence after decoding: times in ms, matchers still as sent. */
export interface PostedSilence {
  id?: string;
  matchers: MatcherInput[];
  startsAt: number;
  endsAt: number;
  createdBy: string;
  comment: string;
}

const goType = (v: Json): string =>
  Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v === 'boolean' ? 'bool' : typeof v;
const isObject = (v: Json | undefined): v is JsonObject =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Go's unmarshal error for `value` landing in `field` of type `type`. */
class Mismatch extends GoDecodeError {
  constructor(value: Json, field: string, type: string) {
    super(`json: cannot unmarshal ${goType(value)} into Go struct field ${field} of type ${type}`);
  }
}

function text(o: JsonObject, key: string, field: string): string | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw new Mismatch(v, field, 'string');
  return v;
}

function bool(o: JsonObject, key: string): boolean | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean') throw new Mismatch(v, `Matcher.matchers.${key}`, 'bool');
  return v;
}

function time(o: JsonObject, key: string): number | undefined {
  const v = text(o, key, `Silence.${key}`);
  if (v === undefined) return undefined;
  const ms = parseDateTime(v);
  if (ms === undefined) throw new GoDecodeError(goTimeParseError(v, '2006-01-02 15:04:05'));
  return ms;
}

/**
 * Decodes the body of `POST /api/v2/silences` as go-swagger does: Go's JSON errors become 400
 * `parsing silence body from "" failed, because ...`; then the schema's first violation, checked
 * in its order (comment, createdBy, endsAt, matchers and each matcher's isRegex, name, value,
 * startsAt), becomes 422 with go-openapi's code (602 required, 612 too few items).
 */
export function decodePostableSilence(body: Body): PostedSilence | BodyRejection {
  const required = (what: string): BodyRejection => ({
    status: 422,
    code: 602,
    message: `${what} in body is required`,
  });
  let json: Json;
  try {
    json = isBlank(body) ? null : parseJsonAsGo(body);
    if (json === null) return required('silence');
    if (!isObject(json)) {
      const target = 'Go value of type struct { ID string "json:\\"id,omitempty\\"" }';
      throw new GoDecodeError(`json: cannot unmarshal ${goType(json)} into ${target}`);
    }
    return checkSchema(json, required);
  } catch (error) {
    if (!(error instanceof GoDecodeError)) throw error;
    const message = `parsing silence body from "" failed, because ${error.message}`;
    return { status: 400, code: 400, message };
  }
}

function checkSchema(
  o: JsonObject,
  required: (what: string) => BodyRejection,
): PostedSilence | BodyRejection {
  const id = text(o, 'id', '.id');
  const comment = text(o, 'comment', 'Silence.comment');
  const createdBy = text(o, 'createdBy', 'Silence.createdBy');
  const endsAt = time(o, 'endsAt');
  const startsAt = time(o, 'startsAt');
  const raw = o['matchers'];
  if (raw !== undefined && raw !== null && !Array.isArray(raw)) {
    throw new Mismatch(raw, 'Silence.matchers', 'models.Matchers');
  }
  const matchers = (raw ?? []).map((item) => {
    if (item !== null && !isObject(item))
      throw new Mismatch(item, 'Silence.matchers', 'models.Matcher');
    const m = item ?? {};
    return {
      name: text(m, 'name', 'Matcher.matchers.name'),
      value: text(m, 'value', 'Matcher.matchers.value'),
      isRegex: bool(m, 'isRegex'),
      isEqual: bool(m, 'isEqual') ?? true,
    };
  });
  if (comment === undefined) return required('comment');
  if (createdBy === undefined) return required('createdBy');
  if (endsAt === undefined) return required('endsAt');
  if (raw === undefined || raw === null) return required('matchers');
  if (matchers.length === 0) {
    return { status: 422, code: 612, message: 'matchers in body should have at least 1 items' };
  }
  const checked: MatcherInput[] = [];
  for (const [i, m] of matchers.entries()) {
    if (m.isRegex === undefined) return required(`matchers.${i}.isRegex`);
    if (m.name === undefined) return required(`matchers.${i}.name`);
    if (m.value === undefined) return required(`matchers.${i}.value`);
    checked.push({ name: m.name, value: m.value, isRegex: m.isRegex, isEqual: m.isEqual });
  }
  if (startsAt === undefined) return required('startsAt');
  return { ...(id ? { id } : {}), matchers: checked, startsAt, endsAt, createdBy, comment };
}
