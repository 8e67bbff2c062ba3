import { createToolRecogniser, toolRuleDefaultOptions, toolRuleOptionsSchema } from '../tools/index.js';
import type { ToolRuleOptions, ToolSiteNode } from '../tools/index.js';
import { judgePolicyDeclaration, type PolicyProblem } from './require-retry-policy-utils/index.js';
import { createRule } from './utils/index.js';

export type Options = [ToolRuleOptions];
export type MessageIds = PolicyProblem['messageId'];

export default createRule<Options, MessageIds>({
  name: 'require-retry-policy',
  meta: {
    type: 'problem',
    docs: {
      description: 'Require every agent tool definition to declare its retry policy',
      recommended: 'recommended',
      requiresTypeChecking: false,
    },
    messages: {
      missingPolicy:
        '{{tool}} declares no retry policy: a repeated call (transport retry, loop retry, resumed run) cannot be judged safe or unsafe. {{remedy}}',
      incompletePolicy:
        '{{tool}} declares a retry policy without {{missing}}: a repeated call (transport retry, loop retry, resumed run) cannot be judged safe or unsafe. Add {{missing}}.',
      incompleteAnnotations:
        '{{tool}} annotations leave {{missing}} unstated, and the MCP defaults (destructive, not idempotent) are assumptions, not a declaration: a client cannot judge whether to retry. State {{missing}}, or `readOnlyHint: true` for a read-only tool.',
    },
    schema: [toolRuleOptionsSchema],
    defaultOptions: toolRuleDefaultOptions,
  },
  create(context, [{ toolFactories }]) {
    const recogniser = createToolRecogniser(context.sourceCode, { toolFactories: toolFactories ?? [] });
    if (!recogniser.mayDefineTools) return {};

    const visit = (node: ToolSiteNode): void => {
      for (const tool of recogniser.definitionsAt(node)) {
        const problem = judgePolicyDeclaration(context.sourceCode, tool);
        if (problem) context.report(problem);
      }
    };
    return { CallExpression: visit, NewExpression: visit, ClassDeclaration: visit, ClassExpression: visit };
  },
});

