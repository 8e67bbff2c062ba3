import { createToolRecogniser, type ToolSiteNode } from '../tools/index.js';
import { createPolicyRule, reportPolicyProblems } from './require-retry-policy-utils/index.js';

export type { PolicyMessageIds as MessageIds, PolicyRuleOptions as Options } from './require-retry-policy-utils/index.js';

export default createPolicyRule({
  name: 'require-retry-policy',
  description: 'Require every agent tool definition to declare its retry policy',
  create(context, [{ toolFactories }]) {
    const recogniser = createToolRecogniser(context.sourceCode, { toolFactories: toolFactories ?? [] });
    if (!recogniser.mayDefineTools) return {};

    const visit = (node: ToolSiteNode): void => reportPolicyProblems(context, recogniser.definitionsAt(node));
    return { CallExpression: visit, NewExpression: visit, ClassDeclaration: visit, ClassExpression: visit };
  },
});

