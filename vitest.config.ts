import { defineConfig } from 'vitest/config';
import { typescriptTransform } from './test/support/typescript-transform.js';

export default defineConfig({
  // Nest needs decorator metadata, which Vite's own transform does not emit; TypeScript compiles instead.
  oxc: false,
  plugins: [typescriptTransform()],
  test: {
    include: ['src/**/*.spec.ts', 'scripts/**/*.spec.ts', 'test/**/*.e2e-spec.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    pool: 'forks',
    // Test files wait on HTTP and PostgreSQL more than on the CPU, and each boots its own app on
    // its own database, so a few run at once and share one module graph per worker.
    maxWorkers: 3,
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
