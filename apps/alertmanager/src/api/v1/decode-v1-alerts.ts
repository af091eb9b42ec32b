import type { PostedAlert } from '../../alerts/alert-ingest';
import { isValidLabelName } from '../../labels';
import { GoDecodeError, parseJsonAsGo } from '../json/parse-json-as-go';
import { isBlank, type Body } from '../json/go-json-syntax';
import { goTimeParseError, parseDateTime } from '../../time/go-date-time';
import { GO_ZERO_TIME } from '../../time/go-zero-time';

type Json = ReturnType<typeof parseJsonAsGo>;

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

function goType(value: Json): string {
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'boolean') return 'bool';
  return typeof value === 'object' ? 'object' : typeof value;
}

const cannot = (value: Json, into: string) =>
  new GoDecodeError(`json: cannot unmarshal ${goType(value)} into ${into}`);

/**
 * Decodes the body of API v1's `POST /api/v1/alerts` as Go's `encoding/json` into
 * `[]*types.Alert`: label names are checked while decoding, times are strict RFC 3339.
 * Throws {@link GoDecodeError} with Go's message.
 */
export function decodeV1Alerts(text: Body): PostedAlert[] {
  if (isBlank(text)) throw new GoDecodeError('EOF');
  const body = parseJsonAsGo(text);
  if (body === null) return [];
  if (!Array.isArray(body)) throw cannot(body, 'Go value of type []*types.Alert');
  return body.map((item) => {
    if (item === null)
      return {
        labels: {},
        annotations: {},
        startsAt: GO_ZERO_TIME,
        endsAt: GO_ZERO_TIME,
        generatorURL: '',
      };
    if (typeof item !== 'object' || Array.isArray(item))
      throw cannot(item, 'Go value of type types.Alert');
    const url = item['generatorURL'] ?? '';
    if (typeof url !== 'string')
      throw cannot(url, 'Go struct field Alert.generatorURL of type string');
    return {
      labels: labelSet(item['labels']),
      annotations: labelSet(item['annotations']),
      startsAt: time(item['startsAt']),
      endsAt: time(item['endsAt']),
      generatorURL: url,
    };
  });
}

function labelSet(value: Json | undefined): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw cannot(value, 'Go value of type map[model.LabelName]model.LabelValue');
  }
  const out: Record<string, string> = {};
  for (const name of Object.keys(value).sort()) {
    const v = value[name];
    if (v !== null && typeof v !== 'string') throw cannot(v, 'Go value of type model.LabelValue');
    out[name] = v ?? '';
  }
  for (const name of Object.keys(out)) {
    if (!isValidLabelName(name))
      throw new GoDecodeError(`${JSON.stringify(name)} is not a valid label name`);
  }
  return out;
}

function time(value: Json | undefined): number {
  if (value === undefined || value === null) return GO_ZERO_TIME;
  const layout = '"2006-01-02T15:04:05Z07:00"';
  if (typeof value !== 'string')
    throw new GoDecodeError(goTimeParseError(JSON.stringify(value), layout));
  const ms = RFC3339.test(value) ? parseDateTime(value) : undefined;
  if (ms === undefined) throw new GoDecodeError(goTimeParseError(JSON.stringify(value), layout));
  return ms;
}
