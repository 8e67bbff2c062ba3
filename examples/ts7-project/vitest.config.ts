import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'example-ts7-project',
    include: ['tests/**/*.test.ts'],
    testTimeout: 120_000,
  },
});
