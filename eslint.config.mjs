import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import local from './tools/eslint/layered-imports.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const alertmanagerMap = JSON.parse(
  readFileSync(join(here, 'apps/alertmanager/architecture.json'), 'utf8'),
);

export default tseslint.config(
  {
    ignores: ['**/dist/**', '**/node_modules/**', '**/coverage/**', '**/.nx/**', '**/testdata/**'],
  },
  ...tseslint.configs.strict,
  prettier,
  {
    files: ['**/*.ts'],
    plugins: { '@nx': nx },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@typescript-eslint/no-extraneous-class': ['error', { allowWithDecorator: true }],
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: true,
          allow: [],
          depConstraints: [
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib', 'type:testing'] },
            { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib', 'type:testing'] },
            { sourceTag: 'type:testing', onlyDependOnLibsWithTags: [] },
            {
              sourceTag: 'scope:tracing',
              onlyDependOnLibsWithTags: ['scope:tracing', 'scope:shared'],
            },
            {
              sourceTag: 'scope:alertmanager',
              onlyDependOnLibsWithTags: ['scope:alertmanager', 'scope:shared'],
            },
          ],
        },
      ],
    },
  },
  {
    // The alertmanager's folders import only downwards, as CONTRIBUTING.md's map says. Specs and
    // test helpers may reach across.
    files: ['apps/alertmanager/src/**/*.ts'],
    ignores: ['**/*.spec.ts', '**/testing/**'],
    plugins: { local },
    rules: {
      'local/layered-imports': [
        'error',
        {
          root: join(here, 'apps/alertmanager/src'),
          layers: alertmanagerMap.layers,
          map: 'apps/alertmanager/architecture.json, CONTRIBUTING.md',
        },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.cjs', '**/*.mjs'],
    languageOptions: {
      globals: {
        require: 'readonly',
        module: 'writable',
        process: 'readonly',
        __dirname: 'readonly',
        console: 'readonly',
      },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
