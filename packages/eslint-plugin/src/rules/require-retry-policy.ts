import { createToolRecogniser, type ToolSiteNode } from '../tools/index.js';
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

    const visit = (node: ToolSiteNode): void => reportPolicyProblems(context, recogniser.definitionsAt(node), suggestFor);
    return { CallExpression: visit, NewExpression: visit, ClassDeclaration: visit, ClassExpression: visit };
  },
});

