/** Every project's tests in one run (`npm test`), closed by one summary line. */
module.exports = {
  projects: [
    '<rootDir>/apps/alertmanager',
    '<rootDir>/apps/tracing-example',
    '<rootDir>/libs/tracing',
    '<rootDir>/libs/testing',
  ],
  reporters: ['default', '<rootDir>/tools/jest-summary-reporter.js'],
  // A global option: the projects' own `testTimeout` does not apply in a multi-project run.
  testTimeout: 30000,
};
