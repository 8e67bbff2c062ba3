import type { FrameworkEntry } from './types.js';

/** `@retrysafe/spec`'s own `defineTool`: the policy is the config's fields. */
export const retrysafe = {
  id: 'retrysafe',
  framework: 'retrysafe',
  title: '@retrysafe/spec',
  modules: ['@retrysafe/spec'],
  packages: ['@retrysafe/spec'],
  factories: [{ export: 'defineTool', configArgument: 0 }],
  classes: [],
  registrations: [],
  toolLists: [],
  runId: 'the run the runner opens (`run.id` in the tool\'s `key` function); not a value the handler makes',
  policy: { configFields: true, declarePolicy: false, remedy: 'Add `sideEffects`, `idempotent` and `retry` to its definition.' },
  standIns: [{ module: '@retrysafe/spec', folder: 'retrysafe-spec' }],
  adapter: { none: 'the spec itself: `createRunner` runs `defineTool` tools' },
} as const satisfies FrameworkEntry;
