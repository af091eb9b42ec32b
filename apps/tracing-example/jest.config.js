const { projectJestConfig } = require('../../jest.preset');

module.exports = { ...projectJestConfig(__dirname), displayName: '@redisx/tracing-example' };
