import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import {
  codeSpan,
  findProperty,
  listWords,
  findPropertyThroughSpreads,
  findVariableOf,
  getPropertyKeyName,
  type FunctionNode,
  getStaticPropertyName,
  getStaticValueOf,
  hasSpread,
  isFunctionNode,
  resolveConst,
  resolveObject,
  skipWrappers,
  staticString,
} from '../ast/index.js';
import {
  createToolRecogniser,
  findPolicyProperty,
  findPolicyContradiction,
  findPolicyPropertyThroughSpreads,
  findUnknownPolicyProperty,
  formatPolicyValue,
  type PolicyField,
  isDeclarePolicyCall,
  isDeclarePolicyPossible,
  isSpecPolicy,
  mayDeclareReconcileHook,
  type ToolDefinition,
  toolLabel,
  type ToolRecogniser,
  toolRuleDefaultOptions,
  type ToolRuleOptions,
  toolRuleOptionsSchema,
} from '../tools/index.js';
import { createRandomKeyCheck, createRule, passesNoKeyToProvider } from './utils/index.js';

export type Options = [ToolRuleOptions];
export type MessageIds = 'policyContradiction' | 'readOnlyAndDestructive' | 'retriesNotRepeatable' | 'unknownPolicyValue' | 'useKnownValue' | 'withKeyUnused';

type SourceCode = Readonly<TSESLint.SourceCode>;
type Context = Readonly<TSESLint.RuleContext<MessageIds, Options>>;

const NO_RETRY = new Set(['never', 'none', 'off']);
const ATTEMPT_FIELDS = ['attempts', 'maxAttempts', 'max_attempts'];
const RETRY_COUNT_FIELDS = ['limit', 'maxRetries', 'max_retries', 'retries'];
const MAX_RETRY_TEXT_LENGTH = 60;

export default createRule<Options, MessageIds>({
  name: 'no-unsafe-retry-policy',
  meta: {
    type: 'problem',
    docs: {
      description: 'Disallow retry policies that contradict themselves or the tool they describe',
      recommended: 'recommended',
      requiresTypeChecking: false,
    },
    messages: {
      policyContradiction:
        '{{tool}} declares a policy that contradicts itself, which `@retrysafe/spec` rejects (tsc with `Contradiction<...>`, the runtime with a ToolPolicyError): {{contradiction}}.',
      retriesNotRepeatable:
        "{{tool}} is declared not safely repeatable (`idempotent: false`) but also declares automatic retries ({{retry}}): every transport or loop-level retry repeats its side effect. Declare `retry: 'never'` with one attempt, or make the tool idempotent with a deterministic key.",
      unknownPolicyValue:
        "{{tool}} declares {{declared}}, which is not one of `@retrysafe/spec`'s values for {{field}}: {{known}}{{nearMiss}}. The spec rejects it (a ToolPolicyError when the tool is defined; tsc only in typed TypeScript), and a loop or a review reading the policy cannot tell what the tool does. Declare one of those values.",
      useKnownValue: 'Declare {{value}}.',
      readOnlyAndDestructive:
        '{{tool}} annotations claim both `readOnlyHint: true` and `destructiveHint: true`: a read-only tool destroys nothing, so one of them is wrong and a client cannot tell whether a retry is safe. Remove the one that is false.',
      withKeyUnused:
        "{{tool}} is declared idempotent with a key (`'with_key'`), but {{handler}} never reads `key` from its context: the effect is not keyed downstream, so a repeat that slips past the dedup record (a crash between the call and the write) runs it twice. Pass `key` to the provider as its idempotency key; for a provider that takes no key, declare a `reconcile` hook that looks the effect up; or declare `idempotent: false`.",
    },
    hasSuggestions: true,
    schema: [toolRuleOptionsSchema],
    defaultOptions: toolRuleDefaultOptions,
  },
  create(context, [{ toolFactories }]) {
    const sourceCode = context.sourceCode;
    const recogniser = createToolRecogniser(sourceCode, { toolFactories: toolFactories ?? [] });
    // What can be judged: a tool, a `defineTool`-shaped call, a `declarePolicy` (imported from the spec).
    if (!recogniser.mayDefineTools && !sourceCode.text.includes('defineTool') && !isDeclarePolicyPossible(sourceCode)) {
      return {};
    }
    // A policy held in a `const` may be declared for several tools: judge it once.
    // A policy held in a `const` (or spread from one) may be declared for several tools: judge it
    // once, and report a field that several policies spread from one `const` once.
    const checkedPolicies = new Set<TSESTree.ObjectExpression>();
    const reported = new Set<TSESTree.Node>();
    // `keyedConfig`: a `defineTool` config, whose `key` function (or its absence) is part of the policy.
    // `spec`: the policy is one `@retrysafe/spec` reads (not a home-grown DSL's, whose values are its own).
    const checkPolicyOnce = (policy: TSESTree.ObjectExpression | undefined, tool: string, spec: boolean, keyedConfig?: TSESTree.ObjectExpression): void => {
      if (!policy || checkedPolicies.has(policy)) return;
      checkedPolicies.add(policy);
      // A value the spec does not know is the fault; what it would contradict is not known.
      if (spec && checkUnknownValue(context, policy, tool, reported)) return;
      if (!checkPolicy(context, policy, tool, reported)) checkContradiction(context, policy, tool, reported, keyedConfig);
    };

    function checkTool(tool: ToolDefinition): void {
      const keyedConfig = tool.framework === 'retrysafe' && tool.policy?.object === tool.config ? tool.config : undefined;
      checkPolicyOnce(tool.policy?.object, toolLabel(tool), isSpecPolicy(tool), keyedConfig);
      checkAnnotations(context, tool);
      if (tool.framework === 'retrysafe' || tool.framework === 'custom') {
        checkWithKey(context, tool.config, toolLabel(tool), ['execute']);
      }
    }

    return {
      CallExpression(node): void {
        const tools = recogniser.definitionsAt(node);
        for (const tool of tools) checkTool(tool);
        if (tools.length === 0 && isDefineToolLike(node)) {
          // A placeholder or home-grown DSL with defineTool's shape: judged the same way.
          const config = resolveObject(sourceCode, node.arguments[0]);
          const label = toolLabel({ name: staticString(sourceCode, findProperty(config, 'name')?.value) });
          checkPolicyOnce(config, label, false);
          checkWithKey(context, config, label, ['execute', 'run', 'handler']);
        }
        if (isDeclarePolicyCall(sourceCode, node)) {
          const [tool, policy] = node.arguments;
          checkPolicyOnce(resolveObject(sourceCode, policy), declaredToolLabel(sourceCode, recogniser, tool), true);
        }
      },
      NewExpression(node): void {
        for (const tool of recogniser.definitionsAt(node)) checkTool(tool);
      },
      ClassDeclaration(node): void {
        for (const tool of recogniser.definitionsAt(node)) checkTool(tool);
      },
      ClassExpression(node): void {
        for (const tool of recogniser.definitionsAt(node)) checkTool(tool);
      },
    };
  },
});

/** `idempotent: false` with a `retry` that retries, or with more than one attempt. Whether it reported (or had). */
function checkPolicy(context: Context, policy: TSESTree.ObjectExpression, tool: string, reported: Set<TSESTree.Node>): boolean {
  const sourceCode = context.sourceCode;
  // Read through spreads of `const` objects: `{ ...NOT_REPEATABLE, retry: 'safe' }` is judged as written inline.
  const field = (name: PolicyField): TSESTree.Property | undefined => findPolicyPropertyThroughSpreads(sourceCode, policy, name);
  if (getStaticValueOf(sourceCode, field('idempotent')?.value) !== false) return false;
  const retry = field('retry');
  const maxAttempts = field('maxAttempts');
  const offending = retry && retriesAutomatically(sourceCode, retry.value) ? retry : maxAttempts;
  if (!offending || (offending !== retry && !isNumberAbove(sourceCode, maxAttempts?.value, 1))) return false;
  if (reported.has(offending)) return true;
  reported.add(offending);
  const text = sourceCode.getText(offending).replace(/\s+/g, ' ');
  const retryText = text.length > MAX_RETRY_TEXT_LENGTH ? `${text.slice(0, MAX_RETRY_TEXT_LENGTH - 3)}...` : text;
  context.report({ node: offending, messageId: 'retriesNotRepeatable', data: { tool, retry: codeSpan(retryText) } });
  return true;
}

/**
 * The other contradictions `@retrysafe/spec` rejects (tools/policyContradictions.ts, the spec's own
 * table as data), judged from static values only, through spreads of visible `const`s. A
 * `defineTool` config's `key` counts where the config shows whether it has one (no hidden spread).
 */
function checkContradiction(
  context: Context,
  policy: TSESTree.ObjectExpression,
  tool: string,
  reported: Set<TSESTree.Node>,
  keyedConfig: TSESTree.ObjectExpression | undefined,
): void {
  const sourceCode = context.sourceCode;
  const field = (name: PolicyField): TSESTree.Property | undefined => findPolicyPropertyThroughSpreads(sourceCode, policy, name);
  const value = (name: PolicyField): unknown => getStaticValueOf(sourceCode, field(name)?.value);
  // `null`: a spread that is not visible may set it.
  const foundKey = keyedConfig && findPropertyThroughSpreads(sourceCode, keyedConfig, 'key');
  const keyProperty = foundKey?.property;
  const hasKey = keyedConfig === undefined || foundKey === null ? undefined : keyProperty !== undefined;
  const contradiction = findPolicyContradiction({
    sideEffects: value('sideEffects'),
    idempotent: value('idempotent'),
    retry: value('retry'),
    maxAttempts: value('maxAttempts'),
    hasKey,
  });
  if (!contradiction) return;
  const node = contradiction.at === 'key' ? keyProperty : field(contradiction.at);
  if (!node || reported.has(node)) return;
  reported.add(node);
  context.report({ node, messageId: 'policyContradiction', data: { tool, contradiction: contradiction.message } });
}

/**
 * A stated static value of `sideEffects`, `idempotent` or `retry` (either spelling, through visible
 * spreads) that is not one of the spec's values (`'moneyout'`, `retry: 'always'`, also behind `as
 * any` or in plain JavaScript), with the values it knows and the near miss among them. Whether it reported.
 */
function checkUnknownValue(context: Context, policy: TSESTree.ObjectExpression, tool: string, reported: Set<TSESTree.Node>): boolean {
  const sourceCode = context.sourceCode;
  const found = findUnknownPolicyProperty(sourceCode, policy);
  if (!found) return false;
  const { unknown, property } = found;
  if (reported.has(property)) return true;
  reported.add(property);
  const known = unknown.known.map((entry) => codeSpan(formatPolicyValue(entry)));
  context.report({
    node: property,
    messageId: 'unknownPolicyValue',
    data: {
      tool,
      declared: codeSpan(sourceCode.getText(property).replace(/\s+/g, ' ')),
      field: codeSpan(getPropertyKeyName(property) ?? unknown.field),
      known: listWords(known, 'or'),
      nearMiss: unknown.nearMiss === undefined ? '' : ` (did you mean ${codeSpan(formatPolicyValue(unknown.nearMiss))}?)`,
    },
    suggest: suggestNearMiss(property, unknown.nearMiss),
  });
  return true;
}

/**
 * The near miss written in place of the literal as the property states it (`'moneyout' as any` →
 * `'money_out' as any`): a suggestion, since the value the author meant is a guess from spelling.
 * None where the value is not a literal in the property itself (a `const` elsewhere, a spread).
 */
function suggestNearMiss(property: TSESTree.Property, nearMiss: unknown): TSESLint.ReportSuggestionArray<MessageIds> {
  if (nearMiss === undefined) return [];
  const literal = skipWrappers(property.value);
  if (literal.type !== AST_NODE_TYPES.Literal) return [];
  const text = formatPolicyValue(nearMiss);
  return [{ messageId: 'useKnownValue', data: { value: codeSpan(text) }, fix: (fixer) => fixer.replaceText(literal, text) }];
}

/** MCP annotations that claim both `readOnlyHint: true` and `destructiveHint: true`. */
function checkAnnotations(context: Context, tool: ToolDefinition): void {
  const isTrue = (property: TSESTree.Property | undefined): boolean =>
    getStaticValueOf(context.sourceCode, property?.value) === true;
  // Through spreads of `const` hints, as if written inline; a hint a hidden spread may set is unknown.
  const hint = (name: string): TSESTree.Property | undefined => findPropertyThroughSpreads(context.sourceCode, tool.annotations, name)?.property;
  const destructive = hint('destructiveHint');
  if (isTrue(hint('readOnlyHint')) && destructive && isTrue(destructive)) {
    context.report({ node: destructive, messageId: 'readOnlyAndDestructive', data: { tool: toolLabel(tool) } });
  }
}

/**
 * `idempotent: 'with_key'` whose handler (the first of `handlerNames` present) never reads `key`,
 * and which declares no `reconcile` hook: the hook answers the crash window instead of a provider's
 * key (the spec's pattern for a provider that takes none), and the runner asks it before a lost
 * attempt runs again.
 */
function checkWithKey(
  context: Context,
  config: TSESTree.ObjectExpression | undefined,
  tool: string,
  handlerNames: readonly string[],
): void {
  const sourceCode = context.sourceCode;
  if (getStaticValueOf(sourceCode, findPolicyProperty(config, 'idempotent')?.value) !== 'with_key') return;
  const handler = handlerNames.map((name) => findProperty(config, name)).find(Boolean);
  const fn = handler && resolveConst(sourceCode, handler.value);
  if (!handler || !isFunctionNode(fn) || handlerReadsKey(sourceCode, fn) || mayDeclareReconcileHook(sourceCode, config)) return;
  // A handler that gives a provider a random key instead of its own: no-random-key reports that key,
  // and says to pass the tool's key (one fault, one report).
  if (createRandomKeyCheck(sourceCode).passesReportedKey(fn)) return;
  // A keyed provider given no key or a constant one: require-key-passthrough names that call and
  // where the tool's key goes (one fault, one report).
  if (passesNoKeyToProvider(sourceCode, fn)) return;
  const data = { tool, handler: codeSpan(getText(sourceCode, handler.key)) };
  context.report({ node: handler.key, messageId: 'withKeyUnused', data });
}

/** `declarePolicy(tool, policy)` is visited before the tool call inside it: name the tool the way that call would. */
function declaredToolLabel(
  sourceCode: SourceCode,
  recogniser: ToolRecogniser,
  tool: TSESTree.CallExpressionArgument | undefined,
): string {
  const inner = tool && resolveConst(sourceCode, tool);
  const isCall = inner?.type === AST_NODE_TYPES.CallExpression || inner?.type === AST_NODE_TYPES.NewExpression;
  const definition = isCall ? recogniser.recogniseToolCall(inner) : undefined;
  return toolLabel({ name: definition ? definition.name : tool?.type === AST_NODE_TYPES.Identifier ? tool.name : undefined });
}

function isDefineToolLike(node: TSESTree.CallExpression): boolean {
  const callee = node.callee;
  if (callee.type === AST_NODE_TYPES.Identifier) return callee.name === 'defineTool';
  return callee.type === AST_NODE_TYPES.MemberExpression && getStaticPropertyName(callee) === 'defineTool';
}

function getText(sourceCode: SourceCode, node: TSESTree.Node): string {
  return node.type === AST_NODE_TYPES.Identifier ? node.name : sourceCode.getText(node);
}

/**
 * Whether a `retry` value asks for automatic retries: any policy name but `'never'`, `true`, a
 * positive count, or a retry object unless it caps attempts at one. Values that are not static
 * are not judged.
 */
function retriesAutomatically(sourceCode: SourceCode, node: TSESTree.Node): boolean {
  const value = getStaticValueOf(sourceCode, node);
  if (typeof value === 'string') return !NO_RETRY.has(value);
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value > 0;
  const object = resolveObject(sourceCode, node);
  if (!object || hasSpread(object)) return false;
  const attempts = ATTEMPT_FIELDS.map((name) => findProperty(object, name)).find(Boolean);
  if (attempts) return isNumberAbove(sourceCode, attempts.value, 1);
  const retries = RETRY_COUNT_FIELDS.map((name) => findProperty(object, name)).find(Boolean);
  return retries ? isNumberAbove(sourceCode, retries.value, 0) : true;
}

function isNumberAbove(sourceCode: SourceCode, node: TSESTree.Node | undefined, limit: number): boolean {
  const value = getStaticValueOf(sourceCode, node);
  return typeof value === 'number' && value > limit;
}

/**
 * Whether a handler reads `key` from its second parameter (`ctx.key`, `{ key }`). Passing the whole
 * context on, or a rest element, counts as reading it: the callee may use it.
 */
function handlerReadsKey(sourceCode: SourceCode, fn: FunctionNode): boolean {
  const param = fn.params[1];
  if (!param) return false;
  const target = param.type === AST_NODE_TYPES.AssignmentPattern ? param.left : param;
  if (target.type === AST_NODE_TYPES.Identifier) return contextReadsKey(sourceCode, target);
  if (target.type === AST_NODE_TYPES.ObjectPattern) return patternReadsKey(sourceCode, target);
  return true;
}

function patternReadsKey(sourceCode: SourceCode, pattern: TSESTree.ObjectPattern): boolean {
  for (const property of pattern.properties) {
    if (property.type === AST_NODE_TYPES.RestElement) {
      const rest = property.argument;
      if (rest.type !== AST_NODE_TYPES.Identifier || contextReadsKey(sourceCode, rest)) return true;
      continue;
    }
    const name = property.computed ? staticKey(property.key) : keyName(property.key);
    if (name !== 'key') continue;
    const value = property.value.type === AST_NODE_TYPES.AssignmentPattern ? property.value.left : property.value;
    if (value.type !== AST_NODE_TYPES.Identifier) return true;
    return variableOf(sourceCode, value)?.references.some((reference) => reference.isRead()) ?? true;
  }
  return false;
}

/** `ctx.key`, `const { key } = ctx`, or `ctx` handed on whole. */
function contextReadsKey(sourceCode: SourceCode, identifier: TSESTree.Identifier): boolean {
  const variable = variableOf(sourceCode, identifier);
  if (!variable) return true;
  return variable.references.some((reference) => {
    if (!reference.isRead()) return false;
    const parent = reference.identifier.parent;
    if (parent?.type === AST_NODE_TYPES.MemberExpression && parent.object === reference.identifier) {
      const name = getStaticPropertyName(parent);
      return name === undefined || name === 'key';
    }
    if (parent?.type === AST_NODE_TYPES.VariableDeclarator && parent.id.type === AST_NODE_TYPES.ObjectPattern) {
      return patternReadsKey(sourceCode, parent.id);
    }
    return true;
  });
}

function variableOf(sourceCode: SourceCode, identifier: TSESTree.Identifier): TSESLint.Scope.Variable | undefined {
  return findVariableOf(identifier, sourceCode) ?? undefined;
}

function keyName(node: TSESTree.Node): string | undefined {
  return node.type === AST_NODE_TYPES.Identifier ? node.name : staticKey(node);
}

function staticKey(node: TSESTree.Node): string | undefined {
  return node.type === AST_NODE_TYPES.Literal && typeof node.value === 'string' ? node.value : undefined;
}
