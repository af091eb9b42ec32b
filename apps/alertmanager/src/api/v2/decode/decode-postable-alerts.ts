import type { PostedAlert } from '../../../alerts/alert-ingest';
import { scanFirstValue } from './go-json-syntax';
import { goTimeParseError, parseDateTime } from './go-time';
import { isUri } from './uri';

/** A body the API refuses: the status and the JSON `{code, message}` go-swagger would send. */
export interface BodyRejection {
  status: 400 | 422;
  code: number;
  message: string;
}

/** A decoding failure in the words of Go's `encoding/json`. */
export class GoDecodeError extends Error {}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Go's name for a JSON value's type in `cannot unmarshal X into ...`. */
function goType(value: Json): string {
  if (Array.isArray(value)) return 'array';
  if (value === null) return 'null';
  if (typeof value === 'boolean') return 'bool';
  return typeof value === 'object' ? 'object' : typeof value;
}

/** Parses JSON, throwing Go's syntax message on failure. */
export function parseJsonAsGo(text: string): Json {
  try {
    return JSON.parse(text) as Json;
  } catch {
    // JSON.parse rejects trailing data that Go's Decoder ignores: parse the first value alone.
    const scan = scanFirstValue(text);
    if (scan.error !== undefined) throw new GoDecodeError(scan.error);
    return JSON.parse(text.slice(0, scan.end)) as Json;
  }
}

/**
 * Decodes the body of `POST /api/v2/alerts` as go-swagger does: Go's JSON errors become 400
 * `parsing alerts body from "" failed, because ...`, schema violations become 422 with
 * go-openapi's codes (602 required, 601 format). Unknown fields are ignored.
 */
export function decodePostableAlerts(text: string): PostedAlert[] | BodyRejection {
  if (text.trim() === '') return { status: 422, code: 602, message: 'alerts in body is required' };
  const failed = (why: string): BodyRejection => ({
    status: 400,
    code: 400,
    message: `parsing alerts body from "" failed, because ${why}`,
  });
  let body: Json;
  try {
    body = parseJsonAsGo(text);
  } catch (error) {
    return failed((error as Error).message);
  }
  if (body === null) return [];
  if (!Array.isArray(body)) return failed(unmarshalError(body, 'models.PostableAlerts'));

  let typeError: string | undefined;
  const typeMismatch = (value: Json, into: string) => {
    typeError ??= unmarshalError(value, into);
  };
  const schema: Array<{ code: number; message: string }> = [];
  const alerts: PostedAlert[] = [];
  for (const [index, item] of body.entries()) {
    if (item !== null && (typeof item !== 'object' || Array.isArray(item))) {
      typeMismatch(item, 'models.PostableAlert');
      continue;
    }
    const fields = item ?? {};
    const labels = labelSet(fields['labels'], 'Alert.labels', typeMismatch);
    const annotations = labelSet(fields['annotations'], 'PostableAlert.annotations', typeMismatch);
    const url = fields['generatorURL'] ?? '';
    if (typeof url !== 'string')
      typeMismatch(url, 'struct field Alert.generatorURL of type strfmt.URI');
    const startsAt = time(fields['startsAt'], typeMismatch);
    const endsAt = time(fields['endsAt'], typeMismatch);
    if (typeof startsAt === 'string') return failed(startsAt);
    if (typeof endsAt === 'string') return failed(endsAt);
    if (labels === undefined)
      schema.push({ code: 602, message: `${index}.labels in body is required` });
    if (typeof url === 'string' && url !== '' && !isUri(url)) {
      schema.push({
        code: 601,
        message: `${index}.generatorURL in body must be of type uri: ${JSON.stringify(url)}`,
      });
    }
    alerts.push({
      labels: labels ?? {},
      annotations: annotations ?? {},
      startsAt,
      endsAt,
      generatorURL: typeof url === 'string' ? url : '',
    });
  }
  if (typeError !== undefined) return failed(typeError);
  if (schema.length === 1) return { status: 422, ...schema[0] };
  if (schema.length > 1) {
    const list = schema.map((s) => s.message).join('\n');
    return { status: 422, code: 602, message: `validation failure list:\n${list}` };
  }
  return alerts;
}

function unmarshalError(value: Json, into: string): string {
  const target = into.startsWith('struct field') ? `Go ${into}` : `Go value of type ${into}`;
  return `json: cannot unmarshal ${goType(value)} into ${target}`;
}

function labelSet(
  value: Json | undefined,
  field: string,
  mismatch: (value: Json, into: string) => void,
): Record<string, string> | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) {
    mismatch(value, `struct field ${field} of type models.LabelSet`);
    return {};
  }
  const out: Record<string, string> = {};
  for (const name of Object.keys(value).sort()) {
    const v = value[name];
    if (v === null) out[name] = '';
    else if (typeof v === 'string') out[name] = v;
    else mismatch(v, `struct field ${field} of type string`);
  }
  return out;
}

/** ms, 0 when absent; a string is Go's parse error, which aborts decoding at once. */
function time(
  value: Json | undefined,
  mismatch: (value: Json, into: string) => void,
): number | string {
  if (value === undefined || value === null || value === '') return 0;
  if (typeof value !== 'string') {
    mismatch(value, 'string');
    return 0;
  }
  return parseDateTime(value) ?? goTimeParseError(value, '2006-01-02 15:04:05');
}
