import retrysafe from '@retrysafe/eslint-plugin';

export default [
  ...retrysafe.configs['recommended-type-checked'],
  {
    // The same project service options for every typed file: typescript-eslint starts one service,
    // with the options of the first file it types. vitest.config.ts is in no tsconfig.json.
    files: ['**/*.{ts,mts,cts,tsx}'],
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['*.config.ts'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
  },
];
