import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeWhen } from '@redisx/testing';
import { formatCounts, runConformance } from './run-conformance';

/** Prometheus's own PromQL test files, read in place from the shared reference beside the repository. */
const DIRECTORY =
  process.env['PROMQL_TEST_DIR'] ??
  join(__dirname, '..', '..', '..', '..', '..', '..', 'shared', 'reference', 'promqltest');

/**
 * Counts per file: passes must not drop nor failures grow (the baseline is moved as the engine
 * grows); unsupported evals are listed for the record.
 */
const BASELINE = JSON.parse(
  readFileSync(join(__dirname, 'testdata', 'conformance-baseline.json'), 'utf8'),
) as Record<string, { passed: number; failed: number; unsupported: number }>;

// The files are reference material kept beside this repository, not in it: a clone without them
// skips the check, saying so (a directory named by PROMQL_TEST_DIR must exist).
const named = process.env['PROMQL_TEST_DIR'] !== undefined;
const describeWithFiles = describeWhen(
  named || existsSync(DIRECTORY),
  `PromQL conformance skipped: Prometheus's test files are not at ${DIRECTORY}`,
);

describeWithFiles("PromQL conformance on Prometheus's test files", () => {
  it('passes at least as many and fails no more evals per file than the baseline', () => {
    expect(existsSync(DIRECTORY)).toBe(true);
    const counts = runConformance(DIRECTORY);
    const failures = counts.flatMap((c) =>
      c.outcomes
        .filter((o) => o.status === 'failed')
        .map((o) => `${c.file}:${o.line} ${o.expr}\n    ${o.reason}`),
    );
    // Evals left out, by why: the file and line of each, so none is skipped silently.
    const unsupported = new Map<string, string[]>();
    for (const c of counts) {
      for (const o of c.outcomes) {
        if (o.status !== 'unsupported') continue;
        // Grouped by kind: the series an eval reads and the details follow in its own reason.
        const why = o.reason.replace(/ \{.*$/s, '').split(':')[0];
        unsupported.set(why, [...(unsupported.get(why) ?? []), `${c.file}:${o.line}`]);
      }
    }
    const left = [...unsupported].map(
      ([why, where]) => `${why} (${where.length}): ${where.join(' ')}`,
    );
    console.log(
      `${formatCounts(counts)}\n\nfailing evals:\n${failures.join('\n') || '(none)'}\n\nunsupported evals:\n${left.join('\n')}`,
    );
    const regressions = counts.flatMap((c) => {
      const base = BASELINE[c.file] ?? { passed: 0, failed: 0 };
      return c.passed < base.passed || c.failed > base.failed
        ? [`${c.file}: ${c.passed} passed, ${c.failed} failed; baseline ${JSON.stringify(base)}`]
        : [];
    });
    expect(regressions).toEqual([]);
    expect(Object.keys(BASELINE).filter((file) => !counts.some((c) => c.file === file))).toEqual(
      [],
    );
  });
});
