// The type-checked config as docs/getting-started.md gives it, and disable-type-checked for the
// TypeScript config file that no tsconfig.json includes.
import retrysafe from '@retrysafe/eslint-plugin';

export default [
  ...retrysafe.configs['recommended-type-checked'],
  {
    languageOptions: {
      parserOptions: { tsconfigRootDir: import.meta.dirname },
    },
  },
  { files: ['*.config.ts'], ...retrysafe.configs['disable-type-checked'] },
];
