import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import { type FunctionNode, getPropertyKeyName, isFunctionNode, type ObjectResolver, resolveConst, staticString } from '../ast/index.js';
import { findConstantKey, type KeyNameMatcher } from '../keys/index.js';
import { findPolicyFieldThroughSpreads, type ToolDefinition } from '../tools/index.js';

// The handler of a tool that is idempotent with a key, and how that handler reaches the key. Kept
// apart from tools/ (which says what a tool is): require-key-passthrough and the audit's analysis
// (whether a provider call passes the tool's key, analysis/keyDerivation.ts) ask what a handler does
// with its key.

type SourceCode = Readonly<TSESLint.SourceCode>;
type Variable = TSESLint.Scope.Variable;

/** How a handler reaches its tool's key. */
export type HandlerKey =
  /** `execute(input, { key })` or `{ key: idempotencyKey }`: a variable holds the key. */
  | { readonly kind: 'variable'; readonly variable: Variable }
  /** `execute(input, ctx)` (or `{ run, ...ctx }`): the key is `ctx.key`. */
  | { readonly kind: 'context'; readonly variable: Variable }
  /** A `defineTool` handler that does not take the key yet. */
  | { readonly kind: 'unbound' }
  /** A framework tool brings its own key: any variable with a key name in the handler stands for it. */
  | { readonly kind: 'named' };

/** The handler of a with_key tool. */
export interface KeyedHandler {
  readonly tool: ToolDefinition;
  readonly fn: FunctionNode;
  readonly key: HandlerKey;
}

/**
 * The handler of `tool` if its declared policy says `idempotent: 'with_key'` (in the `defineTool`
 * config, `declarePolicy(...)`, LangChain `metadata.retrysafe` or MCP
 * `_meta["io.github.retrysafe/policy"]`) and the handler is a function of this file. `resolve`
 * reads a policy, or a spread in one, that another file declares (the type-aware twin's imported
 * `const`s); without it, such a policy is not known and the tool is not judged.
 */
export function getKeyedHandler(tool: ToolDefinition, sourceCode: SourceCode, resolve?: ObjectResolver): KeyedHandler | undefined {
  const policy = tool.policy && (tool.policy.object ? { sourceCode, object: tool.policy.object } : resolve?.(sourceCode, tool.policy.node));
  // Read through the policy's spreads of visible consts (`{ ...WRITE_WITH_KEY }`), the last one winning.
  const idempotent = policy && findPolicyFieldThroughSpreads(policy.sourceCode, policy.object, 'idempotent', resolve);
  if (!idempotent || staticString(idempotent.sourceCode, idempotent.property.value) !== 'with_key' || !tool.handler) return undefined;
  const fn = resolveConst(sourceCode, tool.handler);
  if (!isFunctionNode(fn)) return undefined;
  return { tool, fn, key: tool.framework === 'retrysafe' ? getContextKey(fn, sourceCode) : { kind: 'named' } };
}

/** `execute(input, context)`: the key is `context.key`, however the second parameter is written. */
function getContextKey(fn: FunctionNode, sourceCode: SourceCode): HandlerKey {
  const context = fn.params[1];
  const bound = (kind: 'context' | 'variable', name: TSESTree.Identifier): HandlerKey => {
    const variable = sourceCode.getDeclaredVariables(fn).find((candidate) => candidate.name === name.name);
    return variable ? { kind, variable } : { kind: 'named' };
  };
  if (context?.type === AST_NODE_TYPES.Identifier) return bound('context', context);
  // `{ run } = {}` and other shapes: the key may be there in a way not worth guessing at.
  if (context && context.type !== AST_NODE_TYPES.ObjectPattern) return { kind: 'named' };
  for (const property of context?.properties ?? []) {
    if (property.type === AST_NODE_TYPES.RestElement && property.argument.type === AST_NODE_TYPES.Identifier) {
      return bound('context', property.argument);
    }
    if (property.type !== AST_NODE_TYPES.Property || getPropertyKeyName(property) !== 'key') continue;
    const value = property.value.type === AST_NODE_TYPES.AssignmentPattern ? property.value.left : property.value;
    return value.type === AST_NODE_TYPES.Identifier ? bound('variable', value) : { kind: 'named' };
  }
  return { kind: 'unbound' };
}

/** The innermost handler among `handlers` that `node` sits in, nested closures included. */
export function findEnclosingHandler(
  node: TSESTree.Node,
  handlers: ReadonlyMap<TSESTree.Node, KeyedHandler>,
): KeyedHandler | undefined {
  for (let current = node.parent; current; current = current.parent) {
    const handler = handlers.get(current);
    if (handler) return handler;
  }
  return undefined;
}

/** `key`, or a name that is a key wherever it appears (`idempotencyKey`, `Idempotency-Key`, ...). */
export function isKeyName(name: string, matchKeyName: KeyNameMatcher): boolean {
  return name === 'key' || matchKeyName(name) !== undefined;
}

/** Whether the variable is declared inside `fn` (a parameter, or a local of its body). */
export function isInside(variable: Variable, fn: FunctionNode): boolean {
  const identifier = variable.defs[0]?.name;
  return identifier !== undefined && fn.range[0] <= identifier.range[0] && identifier.range[1] <= fn.range[1];
}

/**
 * A variable visible at `node` through which a `named` handler reaches its key: a parameter or
 * local of the handler whose name is a key name, declared before `node`, and not bound to a string
 * constant (`const idempotencyKey = 'fixed'` is one key for every call, not the tool's).
 */
export function findNamedKeyVariable(
  node: TSESTree.Node,
  handler: KeyedHandler,
  sourceCode: SourceCode,
  matchKeyName: KeyNameMatcher,
): Variable | undefined {
  for (let scope: TSESLint.Scope.Scope | null = sourceCode.getScope(node); scope; scope = scope.upper) {
    const found = scope.variables.find(
      (variable) =>
        isKeyName(variable.name, matchKeyName) &&
        isInside(variable, handler.fn) &&
        (variable.defs[0]?.name.range[1] ?? Infinity) <= node.range[0] &&
        !isConstantBinding(variable, sourceCode),
    );
    if (found) return found;
    if (scope.block === handler.fn) return undefined;
  }
  return undefined;
}

function isConstantBinding(variable: Variable, sourceCode: SourceCode): boolean {
  const name = variable.defs[0]?.name;
  return name?.type === AST_NODE_TYPES.Identifier && findConstantKey(name, sourceCode) !== undefined;
}

/** Whether `name`, added as a parameter of `fn`, would shadow nothing `fn` uses and clash with nothing it declares. */
export function isNameFreeIn(fn: FunctionNode, name: string, sourceCode: SourceCode): boolean {
  const scope = sourceCode.scopeManager?.acquire(fn);
  if (!scope) return false;
  if (scope.through.some((reference) => reference.identifier.name === name)) return false;
  const declares = (current: TSESLint.Scope.Scope): boolean =>
    current.set.has(name) || current.childScopes.some(declares);
  return !declares(scope);
}
