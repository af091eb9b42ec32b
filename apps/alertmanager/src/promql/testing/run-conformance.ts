import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseTestScript } from './test-script';
import { runTestScript, type EvalOutcome } from './test-runner';

export interface FileCounts {
  readonly file: string;
  readonly passed: number;
  readonly failed: number;
  readonly unsupported: number;
  readonly outcomes: readonly EvalOutcome[];
}

/** Runs every `.test` file of a directory and counts the outcomes per file. */
export function runConformance(directory: string): FileCounts[] {
  return readdirSync(directory)
    .filter((name) => name.endsWith('.test'))
    .sort()
    .map((file) => {
      const outcomes = runTestScript(parseTestScript(readFileSync(join(directory, file), 'utf8')));
      const count = (status: EvalOutcome['status']) =>
        outcomes.filter((o) => o.status === status).length;
      return {
        file,
        passed: count('passed'),
        failed: count('failed'),
        unsupported: count('unsupported'),
        outcomes,
      };
    });
}

/** A table of the counts, one line per file and a total. */
export function formatCounts(counts: readonly FileCounts[]): string {
  const keys = ['passed', 'failed', 'unsupported'] as const;
  const row = (name: string, values: number[]) =>
    `${name.padEnd(28)} ${values.map((v, i) => String(v).padStart(keys[i].length)).join(' ')}`;
  const total = keys.map((k) => counts.reduce((n, c) => n + c[k], 0));
  return [
    `${'file'.padEnd(28)} ${keys.join(' ')}`,
    ...counts.map((c) =>
      row(
        c.file,
        keys.map((k) => c[k]),
      ),
    ),
    row('total', total),
  ].join('\n');
}
