import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GoFloat, GoMap, type Value } from '../exec/values';
import { templateDataFromJson, type TemplateDataJson } from '../template-data-json';

/** Upstream's recorded webhook bodies are its `template.Data` for the scenario's groups. */
const RECORDING = join(
  __dirname,
  '..',
  '..',
  '..',
  'test',
  'testdata',
  'upstream-notifications.json',
);

let recorded: { http: Record<string, TemplateDataJson[]> } | undefined;

function recording() {
  recorded ??= JSON.parse(readFileSync(RECORDING, 'utf8')) as {
    http: Record<string, TemplateDataJson[]>;
  };
  return recorded;
}

/** Plain JSON as Go values: objects are `map[string]interface {}`, non-integers float64. */
function fromJson(json: unknown): Value {
  if (json === null) return null;
  if (Array.isArray(json)) return json.map(fromJson);
  if (typeof json === 'number') return Number.isInteger(json) ? json : new GoFloat(json);
  if (typeof json === 'object') {
    return new GoMap(new Map(Object.entries(json).map(([k, v]) => [k, fromJson(v)])));
  }
  return json as string | boolean;
}

/**
 * A case's data: `"@firing"`/`"@resolved"` is upstream's data for the scenario's firing or
 * resolved group, `{"@data": {...}}` a `template.Data` in JSON, anything else plain JSON.
 */
export function caseData(data: unknown): Value {
  if (data === '@firing' || data === '@resolved') {
    return templateDataFromJson(recording().http['/webhook'][data === '@firing' ? 0 : 1]);
  }
  if (data && typeof data === 'object' && '@data' in data) {
    return templateDataFromJson((data as { '@data': TemplateDataJson })['@data']);
  }
  return fromJson(data);
}
