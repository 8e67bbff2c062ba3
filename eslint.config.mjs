// The repository lints its own sources with typescript-eslint's recommended config and its own
// plugin's (dogfooding: `pnpm lint`, and packages/eslint-plugin/tests/dogfood.test.ts in the test
// command). The plugin is loaded from its build (`pnpm run build`), as a user's config loads it.
import tseslint from 'typescript-eslint';

import retrysafe from './packages/eslint-plugin/dist/index.js';

export default tseslint.config(
  {
    // The examples carry their own eslint.config.js (ESLint looks one up next to each file), and
    // the test fixtures and shared cases are reported on purpose.
    ignores: ['**/dist/**', '**/node_modules/**', 'examples/**', 'packages/*/tests/**', 'bench/**', 'scripts/**'],
  },
  {
    files: ['packages/*/src/**/*.ts'],
    extends: [tseslint.configs.recommended, retrysafe.configs.recommended],
  },
);
