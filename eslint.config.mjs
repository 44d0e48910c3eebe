import eslint from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

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
    // One way to the database (STYLE.md §13): only src/platform/database/ and each module's repositories
    // reach PostgreSQL, and a module's records are imported only inside that module.
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
          patterns: [
            {
              group: ['../*/**/*.record.js', '../../*/**/*.record.js'],
              allowTypeImports: true,
              message: "Another module's records are reached through that module's service.",
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
