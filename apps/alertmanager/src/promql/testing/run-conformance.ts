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
  const rows = counts.map(
    (c) =>
      `${c.file.padEnd(28)} ${String(c.passed).padStart(5)} ${String(c.failed).padStart(6)} ${String(c.unsupported).padStart(11)}`,
  );
  const total = (key: 'passed' | 'failed' | 'unsupported') =>
    counts.reduce((n, c) => n + c[key], 0);
  return [
    `${'file'.padEnd(28)} passed failed unsupported`,
    ...rows,
    `${'total'.padEnd(28)} ${String(total('passed')).padStart(5)} ${String(total('failed')).padStart(6)} ${String(total('unsupported')).padStart(11)}`,
  ].join('\n');
}
