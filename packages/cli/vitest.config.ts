import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'cli',
    include: ['tests/**/*.test.ts'],
    // The fixture projects' own tests are audited, not run.
    exclude: ['**/node_modules/**', 'tests/fixtures/**'],
    testTimeout: 60_000,
  },
});
