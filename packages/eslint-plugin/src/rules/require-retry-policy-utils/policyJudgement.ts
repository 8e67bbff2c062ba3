import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import { codeSpan, findProperty, hasSpread, listWords } from '../../ast/index.js';
import {
  declaresPolicyInConfig,
  findPolicyProperty,
  getPolicyLocation,
  getToolLocation,
  isConfigFromParameter,
  isDeclarePolicyCall,
  type PolicyDeclaration,
  policyKey,
  type SpreadResolver,
  spreadsMayDeclare,
  type ToolDefinition,
  toolLabel,
} from '../../tools/index.js';

// Whether a tool definition declares its retry policy (message ids and wording included). Both
// `require-retry-policy` and its type-aware twin judge with this, so a tool counts as declared in
// both rules for the same reasons.

/** A missing or incomplete declaration, ready for `context.report`. */
export interface PolicyProblem {
  readonly messageId: 'incompleteAnnotations' | 'incompletePolicy' | 'missingPolicy';
  readonly loc: TSESTree.SourceLocation;
  readonly data: Record<string, string>;
}

// What to add: the last sentence of the `missingPolicy` message, as each framework's catalogue entry
// says (tools/frameworks).
// A `toolFactories` factory may wrap any framework (a registration, a `tool()`, a `defineTool`), which
// the file does not show: the remedy names no framework's field spelling.
const CUSTOM_REMEDY = 'Wrap it in `declarePolicy(...)` from `@retrysafe/spec` with side effects, idempotency and retry, or declare them where the factory takes them.';
// A tool class is not wrapped itself: its instances are, or it declares a `metadata` field.
const TOOL_CLASS_REMEDY =
  'Add a field `metadata = { retrysafe: {...} }`, or wrap an instance in `declarePolicy(...)` from `@retrysafe/spec` with side effects, idempotency and retry.';

/**
 * The problem with a tool's retry policy declaration, if any. `resolveSpread` reads a config's
 * spreads that the file cannot see (the type-aware twin's cross-file `const`s); without it they
 * get the benefit of the doubt.
 */
export function judgePolicyDeclaration(
  sourceCode: Readonly<TSESLint.SourceCode>,
  tool: ToolDefinition,
  resolveSpread?: SpreadResolver,
): PolicyProblem | undefined {
  const label = toolLabel(tool);
  if (tool.policy) {
    const missing = missingPolicyFields(sourceCode, tool, tool.policy);
    if (missing.length === 0) return undefined;
    // defineTool's policy is its whole config: point at the call, as for a missing policy.
    const loc = tool.policy.via === 'defineTool' ? getToolLocation(sourceCode, tool) : tool.policy.node.loc;
    return { messageId: 'incompletePolicy', loc, data: { tool: label, missing: listWords(missing, 'and') } };
  }
  if ((tool.framework === 'mcp' || tool.framework === 'mcp-low-level') && tool.annotationsNode) {
    // `{ annotations: {...}, ...preset }`: a later spread may replace the annotations written here.
    if (spreadsAfter(tool.config, tool.annotationsNode)) return undefined;
    const missing = missingAnnotations(tool);
    if (missing.length === 0) return undefined;
    return { messageId: 'incompleteAnnotations', loc: tool.annotationsNode.loc, data: { tool: label, missing: listWords(missing, 'and') } };
  }
  // A config that is not visible (imported, built by a call) may well declare everything; tools of
  // frameworks that declare outside their config (AI SDK, OpenAI Agents) are judged without it.
  // A config that spreads another object may bring the annotations, `_meta` or `metadata` with it,
  // unless the spread is a visible local object that declares none of them.
  const declaresInConfig = declaresPolicyInConfig(tool.framework);
  // A spread of a visible local `const` that declares nothing brings no declaration (spreadsMayDeclare).
  if (declaresInConfig && tool.configNode && (!tool.config || spreadsMayDeclare(sourceCode, tool.config, resolveSpread))) return undefined;
  // A wrapper's config parameter: its callers declare the policy (judged at their calls where visible).
  if (isConfigFromParameter(sourceCode, tool)) return undefined;
  return { messageId: 'missingPolicy', loc: getToolLocation(sourceCode, tool), data: { tool: label, remedy: getRemedy(tool) } };
}

/** Whether `object` spreads another object after the property whose value is `value`. */
function spreadsAfter(object: TSESTree.ObjectExpression | undefined, value: TSESTree.Node): boolean {
  if (!object) return false;
  const index = object.properties.findIndex((property) => property.type === AST_NODE_TYPES.Property && property.value === value);
  return index !== -1 && object.properties.slice(index + 1).some((property) => property.type === AST_NODE_TYPES.SpreadElement);
}

function getRemedy(tool: ToolDefinition): string {
  const isClass = tool.node.type === AST_NODE_TYPES.ClassDeclaration || tool.node.type === AST_NODE_TYPES.ClassExpression;
  if (isClass) return TOOL_CLASS_REMEDY;
  return tool.framework === 'custom' ? CUSTOM_REMEDY : getPolicyLocation(tool.framework).remedy;
}

/**
 * The policy fields a visible policy object leaves out, in the spelling its route reads (`defineTool`
 * reads camelCase, policy data the seed's snake_case); none when it spreads another object.
 */
function missingPolicyFields(sourceCode: Readonly<TSESLint.SourceCode>, tool: ToolDefinition, policy: PolicyDeclaration): string[] {
  const object = policy.object;
  if (!object) {
    // `declarePolicy(tool)` with no policy at all; a policy from elsewhere gets the benefit of the doubt.
    const bare = policy.node.type === AST_NODE_TYPES.CallExpression && isDeclarePolicyCall(sourceCode, policy.node);
    return bare ? ['a policy argument'] : [];
  }
  if (hasSpread(object)) return [];
  // A home-grown factory's config may spell the fields either way.
  const via = tool.framework === 'custom' && policy.via === 'defineTool' ? undefined : policy.via;
  return (['sideEffects', 'idempotent', 'retry'] as const)
    .filter((field) => !findPolicyProperty(object, field, via))
    .map((field) => codeSpan(policyKey(field, policy.via)));
}

/**
 * MCP hints that count as a declaration: `readOnlyHint: true` alone (a read is naturally
 * idempotent), or both `destructiveHint` and `idempotentHint` stated. Unknown values are given the
 * benefit of the doubt.
 */
function missingAnnotations(tool: ToolDefinition): string[] {
  const annotations = tool.annotations;
  if (!annotations || hasSpread(annotations)) return [];
  const readOnly = findProperty(annotations, 'readOnlyHint')?.value;
  if (readOnly && !(readOnly.type === AST_NODE_TYPES.Literal && readOnly.value === false)) return [];
  return ['destructiveHint', 'idempotentHint']
    .filter((hint) => !findProperty(annotations, hint))
    .map(codeSpan);
}

