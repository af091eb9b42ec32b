import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

type Schema = Record<string, unknown>;

/** Upstream's OpenAPI spec, read in place from the shared reference beside the repository. */
const SPEC_FILE = join(
  __dirname,
  '..',
  '..',
  '..',
  '..',
  '..',
  '..',
  '..',
  'shared',
  'reference',
  'alertmanager-openapi.yaml',
);

/**
 * The spec's definitions, read on first use; undefined where the reference is not beside the
 * repository (a plain clone), where the schema checks are skipped with a printed reason.
 */
let definitions: Record<string, Schema> | undefined;
let skipped = false;

function loadDefinitions(): Record<string, Schema> | undefined {
  if (definitions === undefined && !skipped) {
    if (existsSync(SPEC_FILE)) {
      definitions = (
        parse(readFileSync(SPEC_FILE, 'utf8')) as { definitions: Record<string, Schema> }
      ).definitions;
    } else {
      skipped = true;
      console.log(`OpenAPI schema checks skipped: upstream's spec is not at ${SPEC_FILE}`);
    }
  }
  return definitions;
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * Checks a value against a definition of the API's OpenAPI 2 spec, for the schema keywords the
 * spec uses ($ref, allOf, type, properties, required, items, enum, additionalProperties, format
 * date-time). Returns the problems found, as `path: what`.
 */
export function schemaProblems(value: unknown, definition: string): string[] {
  const problems: string[] = [];
  if (loadDefinitions() === undefined) return problems;
  check(value, { $ref: `#/definitions/${definition}` }, '$', problems);
  return problems;
}

function check(value: unknown, schema: Schema, path: string, out: string[]): void {
  if (typeof schema['$ref'] === 'string') {
    const name = schema['$ref'].replace('#/definitions/', '');
    return check(value, (definitions as Record<string, Schema>)[name], path, out);
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
