import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export type Schema = Record<string, unknown>;

/**
 * The API's schema as this project's test data: the definitions of the answers the specs check
 * (`SCHEMA_ROOTS`) and those they refer to, with the keywords `check` reads and nothing else.
 * `api-v2-schema.spec.ts` holds it to upstream's OpenAPI spec where that is at hand.
 */
export const SCHEMA_FILE = join(__dirname, 'api-v2-schema.json');
export const SCHEMA_ROOTS = ['gettableAlerts', 'alertGroups', 'alertmanagerStatus'];

const definitions = (
  JSON.parse(readFileSync(SCHEMA_FILE, 'utf8')) as { definitions: Record<string, Schema> }
).definitions;

/** The schema keywords `check` reads; a definition keeps these only. */
const KEYWORDS = [
  '$ref',
  'allOf',
  'type',
  'properties',
  'required',
  'items',
  'enum',
  'additionalProperties',
  'format',
];

/**
 * The definitions reachable from `roots` in an OpenAPI 2 spec's `definitions`, each with the
 * keywords `check` reads only (descriptions and the rest left out), sorted by name.
 */
export function structuralDefinitions(
  all: Record<string, Schema>,
  roots: readonly string[],
): Record<string, Schema> {
  const out: Record<string, Schema> = {};
  const todo = [...roots];
  const reduce = (schema: Schema): Schema => {
    const kept: Schema = {};
    for (const key of KEYWORDS) {
      if (!(key in schema)) continue;
      const value = schema[key];
      if (key === '$ref') todo.push(String(value).replace('#/definitions/', ''));
      if (key === 'properties') {
        const properties = Object.entries(value as Record<string, Schema>);
        kept[key] = Object.fromEntries(properties.map(([name, p]) => [name, reduce(p)]));
      } else if (key === 'allOf') {
        kept[key] = (value as Schema[]).map(reduce);
      } else if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
        kept[key] = reduce(value as Schema);
      } else {
        kept[key] = value;
      }
    }
    return kept;
  };
  while (todo.length > 0) {
    const name = todo.shift() as string;
    if (!(name in out)) out[name] = reduce(all[name]);
  }
  return Object.fromEntries(Object.keys(out).sort().map((name) => [name, out[name]]));
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * Checks a value against a definition of the API's OpenAPI 2 spec, for the schema keywords the
 * spec uses ($ref, allOf, type, properties, required, items, enum, additionalProperties, format
 * date-time). Returns the problems found, as `path: what`.
 */
export function schemaProblems(value: unknown, definition: string): string[] {
  const problems: string[] = [];
  check(value, { $ref: `#/definitions/${definition}` }, '$', problems);
  return problems;
}

function check(value: unknown, schema: Schema, path: string, out: string[]): void {
  if (typeof schema['$ref'] === 'string') {
    const name = schema['$ref'].replace('#/definitions/', '');
    return check(value, definitions[name], path, out);
  }
  for (const part of (schema['allOf'] as Schema[] | undefined) ?? []) check(value, part, path, out);
  const type = schema['type'];
  if (type === 'object' || schema['properties']) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      return void out.push(`${path}: not an object`);
    }
    const obj = value as Record<string, unknown>;
    for (const key of (schema['required'] as string[] | undefined) ?? []) {
      if (!(key in obj)) out.push(`${path}.${key}: required`);
    }
    const props = (schema['properties'] as Record<string, Schema> | undefined) ?? {};
    for (const [key, v] of Object.entries(obj)) {
      if (props[key]) check(v, props[key], `${path}.${key}`, out);
      else if (schema['additionalProperties']) {
        check(v, schema['additionalProperties'] as Schema, `${path}.${key}`, out);
      }
    }
  } else if (type === 'array') {
    if (!Array.isArray(value)) return void out.push(`${path}: not an array`);
    value.forEach((v, i) => check(v, schema['items'] as Schema, `${path}[${i}]`, out));
  } else if (type === 'string' || type === 'boolean') {
    if (typeof value !== type) return void out.push(`${path}: not a ${type}`);
    const allowed = schema['enum'] as unknown[] | undefined;
    if (allowed && !allowed.includes(value)) out.push(`${path}: ${String(value)} not in enum`);
    if (schema['format'] === 'date-time' && !RFC3339.test(value as string)) {
      out.push(`${path}: not a date-time`);
    }
  }
}
