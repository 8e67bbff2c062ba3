import { createToolRecogniser } from '../tools/index.js';
import { createInferredPolicySuggester, createPolicyRule, reportPolicyProblems } from './require-retry-policy-utils/index.js';

export type { PolicyMessageIds as MessageIds, PolicyRuleOptions as Options } from './require-retry-policy-utils/index.js';

export default createPolicyRule({
  name: 'require-retry-policy',
  description: 'Require every agent tool definition to declare its retry policy',
  hasSuggestions: true,
  create(context, [{ toolFactories, libraries }]) {
    const recogniser = createToolRecogniser(context.sourceCode, { toolFactories: toolFactories ?? [] });
    if (!recogniser.mayDefineTools) return {};
    const suggestFor = createInferredPolicySuggester(context.sourceCode, libraries ?? []);

    // Every tool site of the file, from the recogniser's one walk: one listener, not one per call,
    // `new` and class (docs/performance.md).
    return {
      Program(): void {
        for (const site of recogniser.sites()) reportPolicyProblems(context, site.definitions, suggestFor);
      },
    };
  },
});

