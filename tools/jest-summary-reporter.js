const { writeSync } = require('node:fs');

/**
 * Ends a test run with one plain line, `N passed, N failed, N skipped`, so that whoever reads the
 * log (people and CI alike) finds the totals of every project on its last line. It is written
 * when the process exits, after Jest's own summary.
 */
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    const broken = results.numFailedTestSuites + results.numRuntimeErrorTestSuites;
    const lines = [
      `${results.numPassedTests} passed, ${results.numFailedTests} failed, ${skipped} skipped`,
    ];
    if (broken > 0) lines.unshift(`${broken} test suites failed`);
    process.once('exit', () => writeSync(2, `\n${lines.join('\n')}\n`));
  }
}

module.exports = SummaryReporter;
