import { defineConfig } from 'vitest/config';

// Checks of the whole repository rather than of one package: every package type-checks, and the
// packages lint clean with their own plugin.
export default defineConfig({
  test: {
    name: 'repo',
    include: ['tests/**/*.test.ts'],
    root: new URL('..', import.meta.url).pathname,
    testTimeout: 120_000,
  },
});
