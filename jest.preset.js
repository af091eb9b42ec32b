const path = require('node:path');
const fs = require('node:fs');

const swcrc = JSON.parse(fs.readFileSync(path.join(__dirname, '.swcrc'), 'utf8'));

/** Jest settings shared by every project: TypeScript through swc, workspace aliases to sources. */
function projectJestConfig(projectDir) {
  return {
    displayName: require(path.join(projectDir, 'package.json')).name,
    rootDir: projectDir,
    testEnvironment: 'node',
    testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.spec.ts'],
    transform: { '^.+\\.ts$': ['@swc/jest', { ...swcrc, swcrc: false }] },
    moduleNameMapper: {
      '^@redisx/tracing$': path.join(__dirname, 'libs/tracing/src/index.ts'),
      '^@redisx/testing$': path.join(__dirname, 'libs/testing/src/index.ts'),
    },
    testTimeout: 30000,
  };
}

module.exports = { projectJestConfig };
