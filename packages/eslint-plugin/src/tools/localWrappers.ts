import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import {
  findProperty,
  findVariableOf,
  type FunctionNode,
  getStaticMemberPath,
  getPropertyKeyName,
  getStaticPropertyName,
  isFunctionNode,
  resolveConst,
  resolveLocalFunction,
  resolveObject,
  staticString,
  walk,
} from '../ast/index.js';
import { getDeclaredPolicy, getNestedConfigPolicy } from './declaredPolicies.js';
import { contextualName } from './factories.js';
import { getPolicyLocation } from './frameworks/index.js';
import { hasDeclaringProperty, hasPolicyField } from './policyFields.js';
import type { ToolDefinition } from './toolDefinition.js';

// A project's own wrapper around a framework's tool factory or registration, followed as the key
// rules follow local functions: `function addTool(name, config, handler) { server.registerTool(name,
// config, handler) }`, `const defineTool = (spec) => tool({ ...spec })`, `function registerAll(server,
// tools) { for (const t of tools) server.registerTool(t.name, t.config, t.handler) }`. The tool is
// then judged where the wrapper is called, with the arguments in place of the parameters.

type SourceCode = Readonly<TSESLint.SourceCode>;

/** Where an inner definition's part comes from: a parameter of the wrapper, read at `path`; `each` for an element of an array parameter. */
interface ParameterPath {
  readonly index: number;
  readonly path: readonly string[];
  readonly each: boolean;
}

/**
 * A tool definition inside a wrapper, and which parts of it the wrapper's parameters give: the
 * config (`tool({ ...spec })`), or, where the config is the wrapper's own literal, its name and
 * handler (`function makeTool(name, execute) { return tool({ description, execute }) }`,
 * `(id) => createTool({ id, ... })`): `config` is then undefined.
 */
interface WrappedDefinition {
  readonly inner: ToolDefinition;
  readonly config: ParameterPath | undefined;
  readonly name: ParameterPath | undefined;
  readonly handler: ParameterPath | undefined;
}

/** The wrapper of a local function: the definitions in its body that take their config from its parameters. */
export interface LocalWrapper {
  readonly fn: FunctionNode;
  readonly wrapped: readonly WrappedDefinition[];
}

const MAX_PATH = 3;
/** The config fields that name a tool: `name`, and Mastra's `id`. */
const NAME_FIELDS = ['name', 'id'];
/**
 * The parameter names that name the tool a wrapper makes, where its config literal has no name field
 * (an AI SDK `tool()` is named by its key). Not `id`: a parameter `id` is as often the id of what the
 * tool acts on (`(id) => tool({ execute: () => db.get(id) })`); Mastra's `id` is read from the literal.
 */
const NAME_PARAMETERS = new Set(['name', 'toolName', 'toolId']);

/**
 * The tool definitions in `fn`'s body (closures included: `tools.forEach((t) => ...)`) whose config is
 * one of `fn`'s parameters, a part of one, or an object that spreads one. `recognise` is the file's
 * recogniser of a single call.
 */
export function readLocalWrapper(
  sourceCode: SourceCode,
  fn: FunctionNode,
  recognise: (node: TSESTree.CallExpression | TSESTree.NewExpression) => ToolDefinition | undefined,
): LocalWrapper | undefined {
  const wrapped: WrappedDefinition[] = [];
  // From `fn` itself, so that an arrow's expression body (`(spec) => tool({ ...spec })`) is visited.
  walk(fn, sourceCode, (node) => {
    if (node.type !== AST_NODE_TYPES.CallExpression && node.type !== AST_NODE_TYPES.NewExpression) return true;
    const inner = recognise(node);
    // A wrapper that declares a policy itself (`declarePolicy(tool({ ...spec }), {...})`, `{ ...config,
    // annotations: {...} }`) does not pass its callers' declarations through: its definition is
    // judged where it is, and its calls are not tools of their own.
    if (!inner || declaresInWrapper(sourceCode, inner)) return true;
    const config = inner.configNode && configPath(sourceCode, inner.configNode, fn);
    const nameNode = inner.framework === 'mcp' && node.type === AST_NODE_TYPES.CallExpression ? node.arguments[0] : undefined;
    if (config) {
      wrapped.push({
        inner,
        config,
        name: nameNode && parameterPath(sourceCode, nameNode, fn),
        handler: inner.handler && parameterPath(sourceCode, inner.handler, fn),
      });
      return true;
    }
    // The wrapper's own config literal, with its name or its handler from a parameter: each call names its tool.
    const literalName = nameNode ?? (inner.config && NAME_FIELDS.map((field) => findProperty(inner.config, field)?.value).find((value) => value !== undefined));
    // Else the wrapper's parameter called a name (`makeTool(name, ...)` around an AI SDK `tool()`, which names no tool itself).
    const name = literalName ? parameterPath(sourceCode, literalName, fn) : nameParameter(fn);
    const handler = inner.handler && parameterPath(sourceCode, inner.handler, fn);
    if ((name && !name.each) || (handler && !handler.each)) wrapped.push({ inner, config: undefined, name: name?.each ? undefined : name, handler: handler?.each ? undefined : handler });
    return true;
  });
  return wrapped.length > 0 ? { fn, wrapped } : undefined;
}

/**
 * Whether a definition inside a wrapper declares (part of) a policy of its own: MCP annotations, a
 * `declarePolicy(...)` or nested policy, or a declaring property of the config literal besides its
 * spreads.
 */
function declaresInWrapper(sourceCode: SourceCode, inner: ToolDefinition): boolean {
  if (inner.annotationsNode) return true;
  // A `defineTool` config's own fields are its policy: those are read below, besides the spreads.
  if (inner.policy && inner.policy.via !== 'defineTool') return true;
  return inner.config !== undefined && hasDeclaringProperty(sourceCode, inner.config);
}

/** The inner definitions a wrapper makes, which its call sites define instead. */
export function getWrappedDefinitions(wrapper: LocalWrapper): readonly ToolDefinition[] {
  return wrapper.wrapped.map((entry) => entry.inner);
}

/** The tools a call of `wrapper` defines: one per inner definition (per element of an array argument). */
export function fromWrapperCall(sourceCode: SourceCode, call: TSESTree.CallExpression, wrapper: LocalWrapper): ToolDefinition[] {
  return wrapper.wrapped.flatMap((entry) => {
    if (!entry.config) return [fromLiteralWrapperCall(sourceCode, call, entry)];
    const items = argumentsAt(sourceCode, call, entry.config);
    return items.flatMap(({ item, node }) => {
      const configNode = readPath(sourceCode, item, (entry.config as ParameterPath).path);
      if (!configNode) return [];
      const config = resolveObject(sourceCode, configNode);
      const { inner } = entry;
      const nameValue = entry.name && readPath(sourceCode, elementOrArgument(sourceCode, call, entry.name, item), entry.name.path);
      const handlerValue = entry.handler && readPath(sourceCode, elementOrArgument(sourceCode, call, entry.handler, item), entry.handler.path);
      const framework = inner.framework;
      const location = framework === 'custom' ? undefined : getPolicyLocation(framework);
      const annotationsNode = framework === 'mcp' ? findProperty(config, 'annotations')?.value : undefined;
      const policy =
        getDeclaredPolicy(sourceCode, call) ??
        (location && getNestedConfigPolicy(sourceCode, config, location)) ??
        ((location?.configFields === true || framework === 'custom') && config && hasPolicyField(config) ? { via: 'defineTool' as const, node: config, object: config } : undefined);
      const definition: ToolDefinition = {
        ...inner,
        node,
        configNode,
        config,
        name: staticString(sourceCode, nameValue) ?? staticString(sourceCode, findProperty(config, 'name')?.value) ?? staticString(sourceCode, findProperty(config, 'id')?.value) ?? contextualName(node) ?? inner.name,
        description: staticString(sourceCode, findProperty(config, 'description')?.value),
        handler: entry.handler ? handlerValue : (inner.handler ?? findProperty(config, 'execute')?.value ?? findProperty(config, 'handler')?.value),
        annotationsNode,
        annotations: resolveObject(sourceCode, annotationsNode),
        policy,
      };
      return [definition];
    });
  });
}

/** The tool a call of a wrapper with its own config literal defines: the literal's, named and handled by the call's arguments. */
function fromLiteralWrapperCall(sourceCode: SourceCode, call: TSESTree.CallExpression, entry: WrappedDefinition): ToolDefinition {
  const { inner } = entry;
  const argument = (path: ParameterPath): TSESTree.Node | undefined => readPath(sourceCode, elementOrArgument(sourceCode, call, path, call), path.path);
  const nameValue = entry.name && argument(entry.name);
  return {
    ...inner,
    node: call,
    name: staticString(sourceCode, nameValue) ?? (entry.name ? contextualName(call) : inner.name),
    handler: entry.handler ? argument(entry.handler) : inner.handler,
    policy: getDeclaredPolicy(sourceCode, call) ?? inner.policy,
  };
}

/** The argument (or, for `each`, each element object of the array argument) a parameter path starts from. */
function argumentsAt(sourceCode: SourceCode, call: TSESTree.CallExpression, path: ParameterPath): { item: TSESTree.Node; node: TSESTree.CallExpression | TSESTree.ObjectExpression }[] {
  const argument = call.arguments[path.index];
  if (!argument || argument.type === AST_NODE_TYPES.SpreadElement) return [];
  if (!path.each) return [{ item: argument, node: call }];
  const array = resolveConst(sourceCode, argument);
  if (array.type !== AST_NODE_TYPES.ArrayExpression) return [];
  return array.elements.flatMap((element) => {
    const object = element && element.type !== AST_NODE_TYPES.SpreadElement ? resolveObject(sourceCode, element) : undefined;
    return object ? [{ item: object, node: object }] : [];
  });
}

function elementOrArgument(sourceCode: SourceCode, call: TSESTree.CallExpression, path: ParameterPath, item: TSESTree.Node): TSESTree.Node | undefined {
  if (path.each) return item;
  const argument = call.arguments[path.index];
  return argument && argument.type !== AST_NODE_TYPES.SpreadElement ? resolveConst(sourceCode, argument) : undefined;
}

function readPath(sourceCode: SourceCode, start: TSESTree.Node | undefined, path: readonly string[]): TSESTree.Node | undefined {
  let current = start;
  for (const name of path) current = findProperty(resolveObject(sourceCode, current), name)?.value;
  return current;
}

/** The config's parameter path: the parameter itself, a part of it, or an object literal that spreads it. */
function configPath(sourceCode: SourceCode, configNode: TSESTree.Node, fn: FunctionNode): ParameterPath | undefined {
  const direct = parameterPath(sourceCode, configNode, fn);
  if (direct) return direct;
  if (configNode.type !== AST_NODE_TYPES.ObjectExpression) return undefined;
  for (const property of configNode.properties) {
    if (property.type === AST_NODE_TYPES.SpreadElement) {
      const spread = parameterPath(sourceCode, property.argument, fn);
      if (spread) return spread;
    }
  }
  return undefined;
}

/** The parameter of `fn` called like a tool's name (`name`, `toolName`, `toolId`), if any. */
function nameParameter(fn: FunctionNode): ParameterPath | undefined {
  const index = fn.params.findIndex((param) => param.type === AST_NODE_TYPES.Identifier && NAME_PARAMETERS.has(param.name));
  return index === -1 ? undefined : { index, path: [], each: false };
}

/**
 * The property path at which `name` is bound inside a destructuring `pattern` (`{ config: { name } }`
 * → `['config', 'name']`); `[]` when the pattern is `name` itself.
 */
function patternPath(pattern: TSESTree.Node, name: TSESTree.Node, depth = 0): string[] | undefined {
  if (pattern === name) return [];
  if (pattern.type === AST_NODE_TYPES.AssignmentPattern) return patternPath(pattern.left, name, depth);
  if (pattern.type !== AST_NODE_TYPES.ObjectPattern || depth >= MAX_PATH) return undefined;
  for (const property of pattern.properties) {
    if (property.type !== AST_NODE_TYPES.Property || property.computed) continue;
    const key = getPropertyKeyName(property);
    const inner = key === undefined ? undefined : patternPath(property.value, name, depth + 1);
    if (inner) return [key as string, ...inner];
  }
  return undefined;
}

/** `p`, `p.config`, `t` / `t.config` where `t` walks an array parameter (`for (const t of p)`, `p.forEach((t) => ...)`). */
function parameterPath(sourceCode: SourceCode, node: TSESTree.Node, fn: FunctionNode): ParameterPath | undefined {
  const read = getStaticMemberPath(node, MAX_PATH);
  const current = read?.root;
  if (current?.type !== AST_NODE_TYPES.Identifier) return undefined;
  const { path } = read!;
  const def = findVariableOf(current, sourceCode)?.defs[0];
  if (!def) return undefined;
  if (def.type === 'Parameter' && def.node === fn) {
    for (const [index, param] of fn.params.entries()) {
      const bound = patternPath(param, def.name);
      if (bound) return { index, path: [...bound, ...path], each: false };
    }
    return undefined;
  }
  const element = arrayParameterOf(sourceCode, def, fn);
  return element === undefined ? undefined : { index: element.index, path: [...element.path, ...path], each: true };
}

/**
 * For `t` in `for (const t of p)` or `p.forEach((t) => ...)` / `p.map(...)`, where `p` is a parameter
 * of `fn`: `p`'s index, and the path inside the element where `t` is destructured from it
 * (`for (const { name } of p)`, `p.forEach(({ name, config }) => ...)`).
 */
function arrayParameterOf(sourceCode: SourceCode, def: TSESLint.Scope.Definition, fn: FunctionNode): { index: number; path: string[] } | undefined {
  let iterated: TSESTree.Node | undefined;
  let bound: string[] | undefined;
  if (def.type === 'Variable' && def.node.parent.parent?.type === AST_NODE_TYPES.ForOfStatement) {
    bound = patternPath(def.node.id, def.name);
    iterated = def.node.parent.parent.right;
  } else if (def.type === 'Parameter' && isFunctionNode(def.node) && def.node.params[0]) {
    bound = patternPath(def.node.params[0], def.name);
    const call = def.node.parent;
    const callee = call?.type === AST_NODE_TYPES.CallExpression && call.arguments[0] === def.node ? call.callee : undefined;
    if (callee?.type === AST_NODE_TYPES.MemberExpression && ['forEach', 'map'].includes(getStaticPropertyName(callee) ?? '')) iterated = callee.object;
  }
  if (!bound || iterated?.type !== AST_NODE_TYPES.Identifier) return undefined;
  const parameter = findVariableOf(iterated, sourceCode)?.defs[0];
  if (parameter?.type !== 'Parameter' || parameter.node !== fn) return undefined;
  const index = fn.params.indexOf(parameter.name as TSESTree.Parameter);
  return index === -1 ? undefined : { index, path: bound };
}

/** The local function a call's callee names, if any (a function declaration or a `const` arrow of this file). */
export function getCalledLocalFunction(call: TSESTree.CallExpression, sourceCode: SourceCode): FunctionNode | undefined {
  return call.callee.type === AST_NODE_TYPES.Identifier ? resolveLocalFunction(call.callee, sourceCode) : undefined;
}

/** Whether the file calls `fn` by its name somewhere: then its call sites define its tools. */
export function isCalledInFile(fn: FunctionNode, sourceCode: SourceCode): boolean {
  const declarator = fn.parent?.type === AST_NODE_TYPES.VariableDeclarator && fn.parent.init === fn ? fn.parent : undefined;
  const name = fn.type === AST_NODE_TYPES.FunctionDeclaration ? fn.id : declarator?.id.type === AST_NODE_TYPES.Identifier ? declarator.id : undefined;
  if (!name) return false;
  const variable = sourceCode.getDeclaredVariables(declarator ?? fn).find((candidate) => candidate.name === name.name);
  return (variable?.references ?? []).some((reference) => {
    const parent = reference.identifier.parent;
    return parent?.type === AST_NODE_TYPES.CallExpression && parent.callee === reference.identifier;
  });
}

/** The innermost function around `node`. */
export function getEnclosingFunction(node: TSESTree.Node): FunctionNode | undefined {
  for (let current = node.parent; current; current = current.parent) if (isFunctionNode(current)) return current;
  return undefined;
}

/**
 * Whether a definition's config is, or spreads, a parameter of a function around it (`function
 * makeTool(config) { return tool({ ...config, inputSchema }) }`): a wrapper's definition. The file's
 * calls of the wrapper are judged with their arguments (the recogniser defines the tools there); a
 * wrapper the file does not call (an exported factory) leaves the policy to its callers, so its
 * definition gets the benefit of the doubt, in every framework alike.
 */
export function isConfigFromParameter(sourceCode: SourceCode, tool: ToolDefinition): boolean {
  const configNode = tool.configNode;
  if (!configNode) return false;
  for (let fn = getEnclosingFunction(tool.node); fn; fn = getEnclosingFunction(fn)) {
    if (configPath(sourceCode, configNode, fn)) return true;
  }
  return false;
}
