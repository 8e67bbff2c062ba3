import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES, ASTUtils } from '@typescript-eslint/utils';

import { createRule } from '../util/createRule.js';
import { getStaticPropertyName } from '../util/imports.js';
import type { ToolDefinition, ToolFactory } from '../util/toolRecognisers.js';
import {
  createToolRecogniser,
  findPolicyProperty,
  findProperty,
  getInputFieldNames,
  hasSpread,
  isDeclarePolicyCall,
  resolveConst,
  resolveObject,
  staticString,
  toolFactoriesSchema,
  toolLabel,
} from '../util/toolRecognisers.js';

export type Options = [{ idempotentHintHeuristic?: boolean; toolFactories?: ToolFactory[] }];
export type MessageIds = 'idempotentHintOnCreate' | 'readOnlyAndDestructive' | 'retriesNotRepeatable' | 'withKeyUnused';

type SourceCode = Readonly<TSESLint.SourceCode>;
type FunctionNode = TSESTree.ArrowFunctionExpression | TSESTree.FunctionDeclaration | TSESTree.FunctionExpression;

// Verbs whose repetition makes a new effect (a resource, a message, a payment, a line).
const CREATE_VERBS = new Set([
  'add', 'append', 'book', 'charge', 'comment', 'create', 'email', 'enqueue', 'increment', 'insert', 'invite',
  'new', 'notify', 'pay', 'post', 'publish', 'push', 'refund', 'reply', 'schedule', 'send', 'submit', 'transfer',
]);
// Verbs that name an absolute or keyed operation; `create_or_update_file` is an upsert.
const KEYED_VERBS = new Set([
  'cancel', 'delete', 'ensure', 'fetch', 'find', 'get', 'list', 'put', 'read', 'remove', 'replace', 'search', 'set',
  'sync', 'update', 'upsert',
]);
const NO_RETRY = new Set(['never', 'none', 'off']);
const ATTEMPT_FIELDS = ['attempts', 'maxAttempts', 'max_attempts'];
const RETRY_COUNT_FIELDS = ['limit', 'maxRetries', 'max_retries', 'retries'];

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
      retriesNotRepeatable:
        "{{tool}} is declared not safely repeatable (`idempotent: false`) but also declares automatic retries (`{{retry}}`): every transport or loop-level retry repeats its side effect. Declare `retry: 'never'` with one attempt, or make the tool idempotent with a deterministic key.",
      idempotentHintOnCreate:
        '{{tool}} claims `idempotentHint: true`, but its {{where}} says `{{verb}}` and its input has no key or id field: each call makes a new effect, so a client that trusts the hint and retries makes a duplicate. Take a caller-supplied key or id as input, or set `idempotentHint: false`.',
      readOnlyAndDestructive:
        '{{tool}} annotations claim both `readOnlyHint: true` and `destructiveHint: true`: a read-only tool destroys nothing, so one of them is wrong and a client cannot tell whether a retry is safe. Remove the one that is false.',
      withKeyUnused:
        "{{tool}} is declared idempotent with a key (`'with_key'`), but `{{handler}}` never reads `key` from its context: the effect is not keyed downstream, so a repeat that slips past the dedup record (a crash between the call and the write) runs it twice. Pass `key` to the provider as its idempotency key, or declare `idempotent: false`.",
    },
    schema: [
      {
        type: 'object',
        additionalProperties: false,
        properties: {
          idempotentHintHeuristic: {
            type: 'boolean',
            description:
              'Report MCP tools whose name says they create, send, charge or append but claim `idempotentHint: true`.',
          },
          toolFactories: toolFactoriesSchema,
        },
      },
    ],
    defaultOptions: [{ idempotentHintHeuristic: true, toolFactories: [] }],
  },
  create(context, [{ idempotentHintHeuristic, toolFactories }]) {
    const sourceCode = context.sourceCode;
    const recogniser = createToolRecogniser(sourceCode, { toolFactories: toolFactories ?? [] });
    const checkedPolicies = new Set<TSESTree.ObjectExpression>();

    function checkPolicy(policy: TSESTree.ObjectExpression | undefined, tool: string): void {
      if (!policy || checkedPolicies.has(policy)) return;
      checkedPolicies.add(policy);
      if (staticValue(sourceCode, findPolicyProperty(policy, 'idempotent')?.value) !== false) return;
      const retry = findPolicyProperty(policy, 'retry');
      const maxAttempts = findPolicyProperty(policy, 'maxAttempts');
      const offending = retry && retriesAutomatically(sourceCode, retry.value) ? retry : maxAttempts;
      const attempts = staticValue(sourceCode, maxAttempts?.value);
      if (offending && (offending === retry || (typeof attempts === 'number' && attempts > 1))) {
        const text = sourceCode.getText(offending).replace(/\s+/g, ' ');
        const retryText = text.length > 60 ? `${text.slice(0, 57)}...` : text;
        context.report({ node: offending, messageId: 'retriesNotRepeatable', data: { tool, retry: retryText } });
      }
    }

    function checkAnnotations(tool: ToolDefinition): void {
      const annotations = tool.annotations;
      if (!annotations) return;
      const readOnly = findProperty(annotations, 'readOnlyHint');
      const destructive = findProperty(annotations, 'destructiveHint');
      const idempotent = findProperty(annotations, 'idempotentHint');
      const isTrue = (property: TSESTree.Property | undefined): boolean =>
        staticValue(sourceCode, property?.value) === true;
      if (isTrue(readOnly) && destructive && isTrue(destructive)) {
        context.report({ node: destructive, messageId: 'readOnlyAndDestructive', data: { tool: toolLabel(tool) } });
      }
      if (!idempotentHintHeuristic || !idempotent || !isTrue(idempotent) || isTrue(readOnly)) return;
      const claim = findCreateVerb(tool);
      const fields = tool.inputSchema ? getInputFieldNames(sourceCode, tool.inputSchema) : [];
      if (!claim || !fields || fields.some(isKeyLikeInputName)) return;
      const data = { tool: toolLabel(tool), ...claim };
      context.report({ node: idempotent, messageId: 'idempotentHintOnCreate', data });
    }

    function checkWithKey(
      config: TSESTree.ObjectExpression | undefined,
      tool: string,
      handlerNames: readonly string[],
    ): void {
      if (staticValue(sourceCode, findPolicyProperty(config, 'idempotent')?.value) !== 'with_key') return;
      const handler = handlerNames.map((name) => findProperty(config, name)).find(Boolean);
      const fn = handler && resolveConst(sourceCode, handler.value);
      if (!handler || !isFunction(fn) || handlerReadsKey(sourceCode, fn)) return;
      const data = { tool, handler: getText(sourceCode, handler.key) };
      context.report({ node: handler.key, messageId: 'withKeyUnused', data });
    }

    return {
      CallExpression(node): void {
        const tools = recogniser.definitionsAt(node);
        for (const tool of tools) checkTool(tool);
        if (tools.length === 0 && isDefineToolLike(node)) {
          // A placeholder or home-grown DSL with defineTool's shape: judged the same way.
          const config = resolveObject(sourceCode, node.arguments[0]);
          const label = toolLabel({ name: staticString(sourceCode, findProperty(config, 'name')?.value) });
          checkPolicy(config, label);
          checkWithKey(config, label, ['execute', 'run', 'handler']);
        }
        if (isDeclarePolicyCall(sourceCode, node)) {
          // Visited before the tool call inside it, so name the tool the way that call would.
          const [tool, policy] = node.arguments;
          const inner = tool && resolveConst(sourceCode, tool);
          const isCall = inner?.type === AST_NODE_TYPES.CallExpression || inner?.type === AST_NODE_TYPES.NewExpression;
          const definition = isCall ? recogniser.recogniseToolCall(inner) : undefined;
          const name = definition ? definition.name : tool?.type === AST_NODE_TYPES.Identifier ? tool.name : undefined;
          checkPolicy(resolveObject(sourceCode, policy), toolLabel({ name }));
        }
      },
      NewExpression(node): void {
        for (const tool of recogniser.definitionsAt(node)) checkTool(tool);
      },
    };

    function checkTool(tool: ToolDefinition): void {
      checkPolicy(tool.policy?.object, toolLabel(tool));
      checkAnnotations(tool);
      if (tool.framework === 'retrysafe' || tool.framework === 'custom') {
        checkWithKey(tool.config, toolLabel(tool), ['execute']);
      }
    }
  },
});

function isDefineToolLike(node: TSESTree.CallExpression): boolean {
  const callee = node.callee;
  if (callee.type === AST_NODE_TYPES.Identifier) return callee.name === 'defineTool';
  return callee.type === AST_NODE_TYPES.MemberExpression && getStaticPropertyName(callee) === 'defineTool';
}

function staticValue(sourceCode: SourceCode, node: TSESTree.Node | undefined): unknown {
  return node ? ASTUtils.getStaticValue(node, sourceCode.getScope(node))?.value : undefined;
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
  const value = staticValue(sourceCode, node);
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

function isNumberAbove(sourceCode: SourceCode, node: TSESTree.Node, limit: number): boolean {
  const value = staticValue(sourceCode, node);
  return typeof value === 'number' && value > limit;
}

/** The create-like verb in a tool's name, or else at the start of its description. */
function findCreateVerb(tool: ToolDefinition): { where: string; verb: string } | undefined {
  const nameWords = words(tool.name ?? '');
  if (nameWords.some((word) => KEYED_VERBS.has(word))) return undefined;
  const inName = nameWords.find((word) => CREATE_VERBS.has(word));
  if (inName) return { where: 'name', verb: inName };
  const clause = words((tool.description ?? '').split(/[.;:\n]/)[0] ?? '').map(stem);
  if (clause.some((word) => KEYED_VERBS.has(word))) return undefined;
  const first = clause[0];
  return first && CREATE_VERBS.has(first) ? { where: 'description', verb: first } : undefined;
}

/** `create_automation`, `createAutomation`, `Create an automation` → lower-case words. */
function words(text: string): string[] {
  return text
    .split(/[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])/)
    .filter(Boolean)
    .map((word) => word.toLowerCase());
}

function stem(word: string): string {
  if (CREATE_VERBS.has(word) || KEYED_VERBS.has(word)) return word;
  for (const suffix of ['es', 's']) {
    const base = word.slice(0, -suffix.length);
    if (word.endsWith(suffix) && (CREATE_VERBS.has(base) || KEYED_VERBS.has(base))) return base;
  }
  return word.endsWith('ies') ? `${word.slice(0, -3)}y` : word;
}

/** `id`, `orderId`, `automation_id`, `idempotencyKey`, `dedupeKey`, `clientToken`, `uuid`. */
function isKeyLikeInputName(name: string): boolean {
  return (
    /^(?:id|key|uuid|token)$/i.test(name) ||
    /[_-](?:id|key|uuid|token)$/i.test(name) ||
    /[a-z0-9](?:Id|ID|Key|KEY|Uuid|UUID|Token)$/.test(name) ||
    /idempoten|dedup/i.test(name)
  );
}

function isFunction(node: TSESTree.Node | undefined): node is FunctionNode {
  return (
    node?.type === AST_NODE_TYPES.ArrowFunctionExpression ||
    node?.type === AST_NODE_TYPES.FunctionExpression ||
    node?.type === AST_NODE_TYPES.FunctionDeclaration
  );
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
  return ASTUtils.findVariable(sourceCode.getScope(identifier), identifier) ?? undefined;
}

function keyName(node: TSESTree.Node): string | undefined {
  return node.type === AST_NODE_TYPES.Identifier ? node.name : staticKey(node);
}

function staticKey(node: TSESTree.Node): string | undefined {
  return node.type === AST_NODE_TYPES.Literal && typeof node.value === 'string' ? node.value : undefined;
}
