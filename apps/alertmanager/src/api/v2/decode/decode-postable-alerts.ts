import type { PostedAlert } from '../../../alerts/alert-ingest';
import { isBlank, type Body } from '../../json/go-json-syntax';
import { parseJsonAsGo, type Json } from '../../json/parse-json-as-go';
import { goTimeParseError, parseDateTime } from '../../../time/go-date-time';
import { isUri } from './uri';
import { GO_ZERO_TIME } from '../../../time/go-zero-time';

/** A body the API refuses: the status and the JSON `{code, message}` go-swagger would send. */
export interface BodyRejection {
  status: 400 | 422;
  code: number;
  message: string;
}

/** Go's name for a JSON value's type in `cannot unmarshal X into ...`. */
function goType(value: Json): string {
  if (Array.isArray(value)) return 'array';
  if (value === null) return 'null';
  if (typeof value === 'boolean') return 'bool';
  return typeof value === 'object' ? 'object' : typeof value;
}

/** go-swagger's 422 for a body with no alerts at all. */
export const ALERTS_REQUIRED: BodyRejection = {
  status: 422,
  code: 602,
  message: 'alerts in body is required',
};

/** go-swagger's 400 for a body Go's decoder refused. */
export function alertsBodyFailed(why: string): BodyRejection {
  return { status: 400, code: 400, message: `parsing alerts body from "" failed, because ${why}` };
}

/** The 400 for a well-formed body whose top-level value is not an array (nor null). */
export function notAnAlertsArray(value: Json): BodyRejection {
  return alertsBodyFailed(unmarshalError(value, 'models.PostableAlerts'));
}

/**
 * Decodes the body of `POST /api/v2/alerts` as go-swagger does: Go's JSON errors become 400
 * `parsing alerts body from "" failed, because ...`, schema violations become 422 with
 * go-openapi's codes (602 required, 601 format). Unknown fields are ignored.
 */
export function decodePostableAlerts(body: Body): PostedAlert[] | BodyRejection {
  if (isBlank(body)) return ALERTS_REQUIRED;
  let json: Json;
  try {
    json = parseJsonAsGo(body);
  } catch (error) {
    return alertsBodyFailed((error as Error).message);
  }
  if (json === null) return [];
  if (!Array.isArray(json)) return notAnAlertsArray(json);
  const decoder = new PostableAlertsDecoder();
  for (const [index, item] of json.entries()) {
    const stop = decoder.item(item, index);
    if (stop) return stop;
  }
  return decoder.result();
}

/**
 * Decodes the items of the alerts array one by one, as Go does in order: a malformed time ends
 * decoding at once; the first type mismatch, then the schema violations, are reported after the
 * last item. Shared by the whole-body decoder and the one that decodes long bodies in slices.
 */
export class PostableAlertsDecoder {
  private typeError: string | undefined;
  private readonly schema: Array<{ code: number; message: string }> = [];
  private readonly alerts: PostedAlert[] = [];

  /** Decodes item `index`; returns the rejection that ends decoding at once, if any. */
  item(item: Json, index: number): BodyRejection | undefined {
    const typeMismatch = (value: Json, into: string) => {
      this.typeError ??= unmarshalError(value, into);
    };
    if (item !== null && (typeof item !== 'object' || Array.isArray(item))) {
      typeMismatch(item, 'models.PostableAlert');
      return undefined;
    }
    const fields = item ?? {};
    const labels = labelSet(fields['labels'], 'Alert.labels', typeMismatch);
    const annotations = labelSet(fields['annotations'], 'PostableAlert.annotations', typeMismatch);
    const url = fields['generatorURL'] ?? '';
    if (typeof url !== 'string')
      typeMismatch(url, 'struct field Alert.generatorURL of type strfmt.URI');
    const startsAt = time(fields['startsAt'], typeMismatch);
    const endsAt = time(fields['endsAt'], typeMismatch);
    if (typeof startsAt === 'string') return alertsBodyFailed(startsAt);
    if (typeof endsAt === 'string') return alertsBodyFailed(endsAt);
    if (labels === undefined)
      this.schema.push({ code: 602, message: `${index}.labels in body is required` });
    if (typeof url === 'string' && url !== '' && !isUri(url)) {
      this.schema.push({
        code: 601,
        message: `${index}.generatorURL in body must be of type uri: ${JSON.stringify(url)}`,
      });
    }
    this.alerts.push({
      labels: labels ?? {},
      annotations: annotations ?? {},
      startsAt,
      endsAt,
      generatorURL: typeof url === 'string' ? url : '',
    });
    return undefined;
  }

  /** The decoded alerts, or the rejection of the whole body. */
  result(): PostedAlert[] | BodyRejection {
    if (this.typeError !== undefined) return alertsBodyFailed(this.typeError);
    if (this.schema.length === 1) return { status: 422, ...this.schema[0] };
    if (this.schema.length > 1) {
      const list = this.schema.map((s) => s.message).join('\n');
      return { status: 422, code: 602, message: `validation failure list:\n${list}` };
    }
    return this.alerts;
  }
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

/** ms, Go's zero time when absent; a string is Go's parse error, which aborts decoding at once. */
function time(
  value: Json | undefined,
  mismatch: (value: Json, into: string) => void,
): number | string {
  if (value === undefined || value === null || value === '') return GO_ZERO_TIME;
  if (typeof value !== 'string') {
    mismatch(value, 'string');
    return GO_ZERO_TIME;
  }
  return parseDateTime(value) ?? goTimeParseError(value, '2006-01-02 15:04:05');
}
