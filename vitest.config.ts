import { defineConfig } from 'vitest/config';

// One run covers every package: runtime tests, type tests (*.test-d.ts, checked by tsc through
// vitest's typecheck mode) and rule tests; tests/ holds the checks of the whole repository.
export default defineConfig({
  test: {
    projects: ['packages/*/vitest.config.ts', 'examples/*/vitest.config.ts', 'tests/vitest.config.ts'],
  },
});
