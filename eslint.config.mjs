import eslint from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import trove from './lint/trove-rules.mjs';

export default tseslint.config(
  { ignores: ['dist/', 'coverage/', 'data/', '.test-db/', 'node_modules/', 'web-ui/'] },
  eslint.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message: 'Read configuration through src/platform/config/.',
        },
      ],
    },
  },
  {
    // One way to the database (STYLE.md §13): only src/platform/database/ and each module's
    // repositories reach PostgreSQL.
    files: ['src/**/*.ts'],
    ignores: [
      'src/platform/database/**',
      'src/**/*.repository.ts',
      'src/**/*.record.ts',
      'src/**/*.spec.ts',
    ],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'typeorm',
              importNames: ['DataSource', 'EntityManager', 'Repository', 'QueryRunner'],
              message:
                'Reach the database through the module repository (Database in src/platform/database/).',
            },
            {
              name: '@nestjs/typeorm',
              importNames: ['InjectDataSource', 'InjectRepository', 'InjectEntityManager'],
              message:
                'Reach the database through the module repository (Database in src/platform/database/).',
            },
            { name: 'pg', message: 'Only src/platform/database/ talks to the pg driver.' },
          ],
        },
      ],
    },
  },
  {
    // Each module's tables and classes are its own (docs/architecture.md, "Table ownership").
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.spec.ts'],
    plugins: { trove },
    rules: { 'trove/table-writes': 'error', 'trove/module-boundaries': 'error' },
  },
  {
    // A migration is a frozen copy of what it did: it imports nothing but TypeORM's types, so that
    // no later change to shared code changes what an applied migration does.
    files: ['src/platform/database/migrations/*.ts'],
    ignores: ['src/platform/database/migrations/index.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!typeorm$)',
              message: 'A migration imports nothing but typeorm: copy what it needs into it.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/platform/config/**', 'test/**', 'vitest.config.ts', 'bench/**', 'scripts/**'],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    files: ['test/**', 'src/**/*.spec.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/unbound-method': 'off',
      // Response bodies from supertest are `any`; the assertions check them.
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    files: ['**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
);
