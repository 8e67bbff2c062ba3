import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'example-reference-loop',
    include: ['tests/**/*.test.ts'],
    testTimeout: 30_000,
  },
});
