import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

/** `npm run screenshots`: the console's pages pictured for its documentation (not a test run). */
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['test/screenshots/**/*.screenshots.ts'],
    testTimeout: 300_000,
  },
});
