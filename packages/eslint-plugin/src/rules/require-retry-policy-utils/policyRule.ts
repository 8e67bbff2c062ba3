import type { TSESLint } from '@typescript-eslint/utils';

import { type ToolDefinition, toolRuleDefaultOptions, type ToolRuleOptions, toolRuleOptionsSchema } from '../../tools/index.js';
import { createTwinRule, type TwinSpec } from '../utils/index.js';
import { judgePolicyDeclaration, type PolicyProblem } from './policyJudgement.js';

// What `require-retry-policy` and its type-aware twin share besides the judgement: the messages (a
// tool reads the same whichever rule found it) and the report. The twin adds only the tools that
// need types to be seen.


/** The message ids of both rules. */
export type PolicyMessageIds = PolicyProblem['messageId'];

/** The messages of both rules. */
export const POLICY_MESSAGES: Record<PolicyMessageIds, string> = {
  missingPolicy:
    '{{tool}} declares no retry policy: a repeated call (transport retry, loop retry, resumed run) cannot be judged safe or unsafe. {{remedy}}',
  incompletePolicy:
    '{{tool}} declares a retry policy without {{missing}}: a repeated call (transport retry, loop retry, resumed run) cannot be judged safe or unsafe. Add {{missing}}.',
  incompleteAnnotations:
    '{{tool}} annotations leave {{missing}} unstated, and the MCP defaults (destructive, not idempotent) are assumptions, not a declaration: a client cannot judge whether to retry. State {{missing}}, or `readOnlyHint: true` for a read-only tool.',
};

/** The options of both rules. */
export type PolicyRuleOptions = [ToolRuleOptions];

const createTwin = createTwinRule<PolicyRuleOptions>({
  type: 'problem',
  schema: [toolRuleOptionsSchema],
  defaultOptions: toolRuleDefaultOptions,
});

/** Creates `require-retry-policy` and `require-retry-policy-type-checked`, with the options and messages they share. */
export function createPolicyRule(spec: Omit<TwinSpec<PolicyRuleOptions, PolicyMessageIds>, 'messages'>): ReturnType<typeof createTwin<PolicyMessageIds>> {
  return createTwin({ ...spec, messages: POLICY_MESSAGES });
}

/** Reports each of `tools` that does not declare its policy completely. */
export function reportPolicyProblems(
  context: Readonly<TSESLint.RuleContext<PolicyMessageIds, readonly unknown[]>>,
  tools: readonly ToolDefinition[],
): void {
  for (const tool of tools) {
    const problem = judgePolicyDeclaration(context.sourceCode, tool);
    if (problem) context.report({ loc: problem.loc, messageId: problem.messageId, data: problem.data });
  }
}
