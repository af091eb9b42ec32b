import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeWhen } from '@redisx/testing';
import { parse } from 'yaml';
import { SCHEMA_FILE, SCHEMA_ROOTS, structuralDefinitions, type Schema } from './schema-check';

/**
 * The specs check the API's answers against `api-v2-schema.json`, this repository's own copy of
 * the definitions they need. Where upstream's OpenAPI spec is at hand (the reference kept beside
 * the repository), this spec holds that copy to it, so the two cannot drift apart.
 */
const UPSTREAM_SPEC = join(
  __dirname,
  ...Array<string>(7).fill('..'),
  'shared',
  'reference',
  'alertmanager-openapi.yaml',
);
const describeWithUpstream = describeWhen(
  existsSync(UPSTREAM_SPEC),
  `API schema comparison skipped: upstream's OpenAPI spec is not at ${UPSTREAM_SPEC}`,
);

describeWithUpstream("the API schema the specs check against is upstream's", () => {
  it("holds upstream's definitions of the checked answers, keyword for keyword", () => {
    const upstream = parse(readFileSync(UPSTREAM_SPEC, 'utf8')) as {
      definitions: Record<string, Schema>;
    };
    const ours = JSON.parse(readFileSync(SCHEMA_FILE, 'utf8')) as {
      definitions: Record<string, Schema>;
    };
    expect(ours.definitions).toEqual(structuralDefinitions(upstream.definitions, SCHEMA_ROOTS));
  });
});
