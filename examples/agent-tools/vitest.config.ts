import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'example-agent-tools',
    include: ['tests/**/*.test.ts'],
    testTimeout: 60_000,
  },
});
