import type { TSESLint } from '@typescript-eslint/utils';

import { codeSpan } from '../../ast/index.js';
import { createEffectsAnalyser, createNewKeyFinder, type EffectLibrary, effectLibrariesSchema, inferPolicy } from '../../effects/index.js';
import { hasPolicyField, type SpreadResolver, type ToolDefinition, toolRuleDefaultOptions, type ToolRuleOptions, toolRuleOptionsSchema } from '../../tools/index.js';
import { createTwinRule, type TwinSpec } from '../utils/index.js';
import { judgePolicyDeclaration, type PolicyProblem } from './policyJudgement.js';
import { planPolicySuggestion } from './policySuggestion.js';

// What `require-retry-policy` and its type-aware twin share besides the judgement: the messages (a
// tool reads the same whichever rule found it) and the report. The twin adds only the tools that
// need types to be seen.


/** The message ids of both rules (`declareInferred` is the syntactic rule's suggestion). */
export type PolicyMessageIds = PolicyProblem['messageId'] | 'declareInferred';

/** The messages of both rules. */
export const POLICY_MESSAGES: Record<PolicyMessageIds, string> = {
  missingPolicy:
    '{{tool}} declares no retry policy: a repeated call (transport retry, loop retry, resumed run) cannot be judged safe or unsafe. {{remedy}}',
  incompletePolicy:
    '{{tool}} declares a retry policy without {{missing}}: a repeated call (transport retry, loop retry, resumed run) cannot be judged safe or unsafe. Add {{missing}}.',
  incompleteAnnotations:
    '{{tool}} annotations leave {{missing}} unstated, and the MCP defaults (destructive, not idempotent) are assumptions, not a declaration: a client cannot judge whether to retry. State {{missing}}, or `readOnlyHint: true` for a read-only tool.',
  declareInferred: 'Declare what its handler does ({{reason}}): {{declaration}}.',
};

/** The options of both rules: the tool rules' own, and the effects catalogue's extra libraries (for the suggestions). */
export type PolicyRuleOptions = [ToolRuleOptions & { readonly libraries?: EffectLibrary[] }];

const createTwin = createTwinRule<PolicyRuleOptions>({
  type: 'problem',
  schema: [{ ...toolRuleOptionsSchema, properties: { ...toolRuleOptionsSchema.properties, libraries: effectLibrariesSchema } }],
  defaultOptions: [{ ...toolRuleDefaultOptions[0], libraries: [] }],
  deepOptions: ['libraries'],
});

/** Creates `require-retry-policy` and `require-retry-policy-type-checked`, with the options and messages they share. */
export function createPolicyRule(spec: Omit<TwinSpec<PolicyRuleOptions, PolicyMessageIds>, 'messages'>): ReturnType<typeof createTwin<PolicyMessageIds>> {
  return createTwin({ ...spec, messages: POLICY_MESSAGES });
}

/**
 * Reports each of `tools` that does not declare its policy completely (`resolveSpread`: see
 * {@link judgePolicyDeclaration}).
 */
export function reportPolicyProblems(
  context: Readonly<TSESLint.RuleContext<PolicyMessageIds, readonly unknown[]>>,
  tools: readonly ToolDefinition[],
  suggestFor?: (tool: ToolDefinition, problem: PolicyProblem) => TSESLint.ReportSuggestionArray<PolicyMessageIds>,
  resolveSpread?: SpreadResolver,
): void {
  for (const tool of tools) {
    const problem = judgePolicyDeclaration(context.sourceCode, tool, resolveSpread);
    if (problem) context.report({ loc: problem.loc, messageId: problem.messageId, data: problem.data, suggest: suggestFor?.(tool, problem) ?? [] });
  }
}

/**
 * The suggestions of require-retry-policy: for a tool that declares nothing, the declaration its
 * handler's effects imply (effects/inferredPolicy.ts), in its framework's vocabulary.
 */
export function createInferredPolicySuggester(
  sourceCode: Readonly<TSESLint.SourceCode>,
  libraries: readonly EffectLibrary[],
): (tool: ToolDefinition, problem: PolicyProblem) => TSESLint.ReportSuggestionArray<PolicyMessageIds> {
  let analyser: ReturnType<typeof createEffectsAnalyser> | undefined;
  let newKeyOf: ReturnType<typeof createNewKeyFinder> | undefined;
  return (tool, problem) => {
    const declaresNothing =
      problem.messageId === 'missingPolicy' || (problem.messageId === 'incompletePolicy' && tool.policy?.via === 'defineTool' && !hasPolicyField(tool.policy.object));
    if (!declaresNothing || !tool.handler) return [];
    // Where the declaration would go is decided by the tool alone: a tool with no place for one
    // needs no analysis of its handler (docs/performance.md).
    const write = planPolicySuggestion(sourceCode, tool);
    if (!write) return [];
    analyser ??= createEffectsAnalyser(sourceCode, { libraries });
    const effects = analyser.analyseHandler(tool.handler, tool.name);
    newKeyOf ??= createNewKeyFinder(sourceCode);
    const policy = effects && inferPolicy(effects, { newKeyOf });
    if (!policy) return [];
    const suggestion = write(policy);
    return [{ messageId: 'declareInferred', data: { declaration: codeSpan(suggestion.declaration), reason: policy.reason }, fix: suggestion.fix }];
  };
}

