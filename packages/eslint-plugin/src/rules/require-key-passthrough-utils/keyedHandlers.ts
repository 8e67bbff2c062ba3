import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES, ASTUtils } from '@typescript-eslint/utils';

import { resolveConst, staticString } from '../../ast/index.js';
import type { KeyNameMatcher } from '../../keys/index.js';
import { findPolicyProperty, type ToolDefinition } from '../../tools/index.js';

// The handler of a tool that is idempotent with a key, and how that handler reaches the key. Kept
// apart from tools/ (which says what a tool is) because only require-key-passthrough
// asks what a handler does with its key.

type SourceCode = Readonly<TSESLint.SourceCode>;
type Variable = TSESLint.Scope.Variable;

/** A function that can be a tool's handler. */
export type HandlerFunction = TSESTree.ArrowFunctionExpression | TSESTree.FunctionDeclaration | TSESTree.FunctionExpression;

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
  readonly fn: HandlerFunction;
  readonly key: HandlerKey;
}

/** Where a value comes from, as far as the tool's key goes. */
export type KeyOrigin = 'context' | 'key' | 'other' | 'unknown';

/**
 * The handler of `tool` if its declared policy says `idempotent: 'with_key'` (in the `defineTool`
 * config, `declarePolicy(...)`, LangChain `metadata.retrysafe` or MCP `_meta.retrysafe`) and the
 * handler is a function of this file.
 */
export function getKeyedHandler(tool: ToolDefinition, sourceCode: SourceCode): KeyedHandler | undefined {
  const idempotent = findPolicyProperty(tool.policy?.object, 'idempotent');
  if (!idempotent || staticString(sourceCode, idempotent.value) !== 'with_key' || !tool.handler) return undefined;
  const fn = resolveConst(sourceCode, tool.handler);
  if (!isHandlerFunction(fn)) return undefined;
  return { tool, fn, key: tool.framework === 'retrysafe' ? getContextKey(fn, sourceCode) : { kind: 'named' } };
}

/** `execute(input, context)`: the key is `context.key`, however the second parameter is written. */
function getContextKey(fn: HandlerFunction, sourceCode: SourceCode): HandlerKey {
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
    if (property.type !== AST_NODE_TYPES.Property || propertyName(property) !== 'key') continue;
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

/**
 * Whether `expression` is the tool's key or built from it (`key`, `ctx.key`, `` `${key}:charge` ``,
 * `String(key)`, a `const` holding one of those), something else (a literal, the input, the run id,
 * an import), or not visible (a parameter of a nested function, a call to a local function).
 */
export function traceKeyOrigin(
  expression: TSESTree.Node,
  handler: KeyedHandler,
  sourceCode: SourceCode,
  matchKeyName: KeyNameMatcher,
  depth = 0,
): KeyOrigin {
  if (depth > 20) return 'unknown';
  const trace = (node: TSESTree.Node | null | undefined): KeyOrigin =>
    node ? traceKeyOrigin(node, handler, sourceCode, matchKeyName, depth + 1) : 'other';
  const node = expression;
  switch (node.type) {
    case AST_NODE_TYPES.Literal:
      return 'other';
    case AST_NODE_TYPES.TemplateLiteral:
      return combine(node.expressions.map(trace));
    case AST_NODE_TYPES.TaggedTemplateExpression:
      return combine(node.quasi.expressions.map(trace));
    case AST_NODE_TYPES.BinaryExpression:
      return node.operator === '+' ? combine([trace(node.left), trace(node.right)]) : 'other';
    case AST_NODE_TYPES.LogicalExpression:
      return combine([trace(node.left), trace(node.right)]);
    case AST_NODE_TYPES.ConditionalExpression:
      return combine([trace(node.consequent), trace(node.alternate)]);
    case AST_NODE_TYPES.AwaitExpression:
      return trace(node.argument);
    case AST_NODE_TYPES.ChainExpression:
    case AST_NODE_TYPES.TSAsExpression:
    case AST_NODE_TYPES.TSNonNullExpression:
    case AST_NODE_TYPES.TSSatisfiesExpression:
    case AST_NODE_TYPES.TSTypeAssertion:
      return trace(node.expression);
    case AST_NODE_TYPES.MemberExpression:
      return traceMember(node, trace(node.object), handler, matchKeyName);
    case AST_NODE_TYPES.CallExpression:
      return traceCall(node, trace, sourceCode);
    case AST_NODE_TYPES.Identifier:
      return traceIdentifier(node, handler, sourceCode, matchKeyName, trace);
    default:
      return 'unknown';
  }
}

/** Any part from the key makes the whole a key built from it; any part not visible, not visible. */
function combine(origins: readonly KeyOrigin[]): KeyOrigin {
  if (origins.includes('key')) return 'key';
  return origins.every((origin) => origin === 'other') ? 'other' : 'unknown';
}

function traceMember(node: TSESTree.MemberExpression, object: KeyOrigin, handler: KeyedHandler, matchKeyName: KeyNameMatcher): KeyOrigin {
  const name = node.computed ? undefined : node.property.type === AST_NODE_TYPES.Identifier ? node.property.name : undefined;
  if (handler.key.kind === 'named' && name !== undefined && isKeyName(name, matchKeyName)) return 'key';
  if (object === 'context') return name === 'key' ? 'key' : name === undefined ? 'unknown' : 'other';
  return object;
}

/** A call is built from the key when the key is an argument or the receiver (`key.slice(0, 40)`). */
function traceCall(node: TSESTree.CallExpression, trace: (node: TSESTree.Node) => KeyOrigin, sourceCode: SourceCode): KeyOrigin {
  const callee = node.callee;
  const parts = node.arguments.map(trace);
  if (callee.type === AST_NODE_TYPES.MemberExpression) parts.push(trace(callee.object));
  const combined = combine(parts);
  // A function of this file may read the key from its closure.
  return combined === 'other' && isLocalFunction(callee, sourceCode) ? 'unknown' : combined;
}

function traceIdentifier(
  node: TSESTree.Identifier,
  handler: KeyedHandler,
  sourceCode: SourceCode,
  matchKeyName: KeyNameMatcher,
  trace: (node: TSESTree.Node) => KeyOrigin,
): KeyOrigin {
  const variable = ASTUtils.findVariable(sourceCode.getScope(node), node);
  const { key } = handler;
  if (!variable || variable.defs.length === 0) return 'other'; // `undefined`, a global
  if ((key.kind === 'variable' || key.kind === 'context') && variable === key.variable) {
    return key.kind === 'variable' ? 'key' : 'context';
  }
  if (key.kind === 'named' && isKeyName(variable.name, matchKeyName) && isInside(variable, handler.fn)) return 'key';
  const def = variable.defs[0];
  if (variable.defs.length > 1 || !def) return 'unknown';
  if (def.type === 'ImportBinding') return 'other';
  if (def.type === 'Parameter') return def.node === handler.fn ? 'other' : 'unknown';
  if (def.type !== 'Variable' || !def.node.init) return 'unknown';
  if (variable.references.some((reference) => reference.isWrite() && !reference.init)) return 'unknown';
  const init = trace(def.node.init);
  if (def.node.id.type === AST_NODE_TYPES.Identifier) return init;
  // `const { key: k } = ctx`, `const { run } = ctx`: a destructured context reads one of its fields.
  const field = def.node.id.type === AST_NODE_TYPES.ObjectPattern ? fieldOf(def.node.id, def.name) : undefined;
  if (init === 'context') return field === 'key' ? 'key' : field === undefined ? 'unknown' : 'other';
  return init === 'other' ? 'other' : 'unknown';
}

/** The top-level property name under which `name` is bound in an object pattern. */
function fieldOf(pattern: TSESTree.ObjectPattern, name: TSESTree.Identifier): string | undefined {
  for (const property of pattern.properties) {
    if (property.type !== AST_NODE_TYPES.Property) continue;
    if (property.range[0] <= name.range[0] && name.range[1] <= property.range[1]) return propertyName(property);
  }
  return undefined;
}

function isLocalFunction(callee: TSESTree.Node, sourceCode: SourceCode): boolean {
  if (callee.type !== AST_NODE_TYPES.Identifier) return false;
  const def = ASTUtils.findVariable(sourceCode.getScope(callee), callee)?.defs[0];
  if (def?.type === 'FunctionName') return true;
  const init = def?.type === 'Variable' ? def.node.init : null;
  return init?.type === AST_NODE_TYPES.ArrowFunctionExpression || init?.type === AST_NODE_TYPES.FunctionExpression;
}

/** `key`, or a name that is a key wherever it appears (`idempotencyKey`, `Idempotency-Key`, ...). */
export function isKeyName(name: string, matchKeyName: KeyNameMatcher): boolean {
  return name === 'key' || matchKeyName(name) !== undefined;
}

function isInside(variable: Variable, fn: HandlerFunction): boolean {
  const identifier = variable.defs[0]?.name;
  return identifier !== undefined && fn.range[0] <= identifier.range[0] && identifier.range[1] <= fn.range[1];
}

/**
 * A variable visible at `node` through which a `named` handler reaches its key: a parameter or
 * local of the handler whose name is a key name, declared before `node`.
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
        (variable.defs[0]?.name.range[1] ?? Infinity) <= node.range[0],
    );
    if (found) return found;
    if (scope.block === handler.fn) return undefined;
  }
  return undefined;
}

/** Whether `name`, added as a parameter of `fn`, would shadow nothing `fn` uses and clash with nothing it declares. */
export function isNameFreeIn(fn: HandlerFunction, name: string, sourceCode: SourceCode): boolean {
  const scope = sourceCode.scopeManager?.acquire(fn);
  if (!scope) return false;
  if (scope.through.some((reference) => reference.identifier.name === name)) return false;
  const declares = (current: TSESLint.Scope.Scope): boolean =>
    current.set.has(name) || current.childScopes.some(declares);
  return !declares(scope);
}

function propertyName(property: TSESTree.Property): string | undefined {
  if (property.key.type === AST_NODE_TYPES.Identifier && !property.computed) return property.key.name;
  return property.key.type === AST_NODE_TYPES.Literal ? String(property.key.value) : undefined;
}

function isHandlerFunction(node: TSESTree.Node): node is HandlerFunction {
  return (
    node.type === AST_NODE_TYPES.ArrowFunctionExpression ||
    node.type === AST_NODE_TYPES.FunctionDeclaration ||
    node.type === AST_NODE_TYPES.FunctionExpression
  );
}
