import retrysafe from '@retrysafe/eslint-plugin';

export default [
  retrysafe.configs.recommended,
];
