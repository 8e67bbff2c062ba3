import retrysafe from '@retrysafe/eslint-plugin';

export default [
  retrysafe.configs['recommended-type-checked'],
  {
    languageOptions: {
      parserOptions: {
        // The config files are in no tsconfig.json: type them with a default project.
        projectService: { allowDefaultProject: ['*.config.*'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
  },
];
