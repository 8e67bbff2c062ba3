import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import { findProperty, type FunctionNode, isFunctionNode, resolveLocalFunction, resolveObject, staticString, walk } from '../ast/index.js';
import { getDeclaredPolicy, getNestedConfigPolicy } from './declaredPolicies.js';
import { contextualName } from './factories.js';
import { getPolicyLocation } from './frameworks/index.js';
import { hasPolicyField, isDeclaringProperty } from './policyFields.js';
import { getOwnProperties, isReadField, readWrapperConfig, rebuildConfig, type WrapperConfig } from './rebuiltConfigs.js';
import type { ToolDefinition } from './toolDefinition.js';
import { argumentsAt, elementOrArgument, nameParameter, type ParameterPath, parameterPath, readPath, type WrapperItem } from './wrapperParameters.js';

/** The config fields that name a tool: `name`, and Mastra's `id`. */
const NAME_FIELDS = ['name', 'id'];

// A project's own wrapper around a framework's tool factory or registration, followed as the key
// rules follow local functions: `function addTool(name, config, handler) { server.registerTool(name,
// config, handler) }`, `const defineTool = (spec) => tool({ ...spec })`, `function registerAll(server,
// tools) { for (const t of tools) server.registerTool(t.name, t.config, t.handler) }`, and one that
// rebuilds the config from the element (`{ description: t.description, annotations: t.annotations }`,
// rebuiltConfigs.ts). The tool is then judged where the wrapper is called, with the arguments in
// place of the parameters.

type SourceCode = Readonly<TSESLint.SourceCode>;

/**
 * A tool definition inside a wrapper, and which parts of it the wrapper's parameters give: the
 * config (`tool({ ...spec })`, or rebuilt from them), or, where the config is the wrapper's own
 * literal, its name and handler (`function makeTool(name, execute) { return tool({ description,
 * execute }) }`, `(id) => createTool({ id, ... })`): `config` is then undefined.
 */
interface WrappedDefinition {
  readonly inner: ToolDefinition;
  readonly config: Exclude<WrapperConfig, { kind: 'opaque' }> | undefined;
  readonly name: ParameterPath | undefined;
  readonly handler: ParameterPath | undefined;
}

/** The wrapper of a local function: the definitions in its body that take their config from its parameters. */
export interface LocalWrapper {
  readonly fn: FunctionNode;
  /** The wrapper's file: its own config fields are kept at calls in the same file only. */
  readonly sourceCode: SourceCode;
  readonly wrapped: readonly WrappedDefinition[];
}

/**
 * The tool definitions in `fn`'s body (closures included: `tools.forEach((t) => ...)`) whose config is
 * one of `fn`'s parameters, a part of one, an object that spreads one, or an object rebuilt field by
 * field from them (rebuiltConfigs.ts). `recognise` is the file's recogniser of a single call.
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
    const config = inner?.configNode && readWrapperConfig(sourceCode, inner.configNode, fn, inner.framework);
    // A wrapper that declares a policy itself (`declarePolicy(tool({ ...spec }), {...})`, `{ ...config,
    // annotations: {...} }`) does not pass its callers' declarations through: its definition is
    // judged where it is, and its calls are not tools of their own. Nor does one whose config is
    // built from its parameters in a way that cannot be read back (opaque).
    if (!inner || config?.kind === 'opaque' || declaresInWrapper(sourceCode, inner, config)) return true;
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
  return wrapped.length > 0 ? { fn, sourceCode, wrapped } : undefined;
}

/**
 * Whether a definition inside a wrapper declares (part of) a policy of its own: MCP annotations, a
 * `declarePolicy(...)` or nested policy, or a declaring property of the config literal besides its
 * spreads and the fields it reads from its parameters.
 */
function declaresInWrapper(sourceCode: SourceCode, inner: ToolDefinition, config: WrapperConfig | undefined): boolean {
  if (inner.annotationsNode && !(config && isReadField(config, inner.annotationsNode))) return true;
  // A `defineTool` config's own fields are its policy: those are read below, besides the spreads.
  if (inner.policy && inner.policy.via !== 'defineTool') return true;
  return inner.config !== undefined && getOwnProperties(inner.config, config).some((property) => isDeclaringProperty(sourceCode, property));
}

/** The inner definitions a wrapper makes, which its call sites define instead. */
export function getWrappedDefinitions(wrapper: LocalWrapper): readonly ToolDefinition[] {
  return wrapper.wrapped.map((entry) => entry.inner);
}

/** The tools a call of `wrapper` defines: one per inner definition (per element of an array argument). */
export function fromWrapperCall(sourceCode: SourceCode, call: TSESTree.CallExpression, wrapper: LocalWrapper): ToolDefinition[] {
  return wrapper.wrapped.flatMap((entry) => {
    const { config } = entry;
    if (!config) return [fromLiteralWrapperCall(sourceCode, call, entry)];
    return argumentsAt(sourceCode, call, config.from).flatMap((site) => {
      const configNode = config.kind === 'rebuilt' ? rebuildConfig(sourceCode, call, config, site, wrapper.sourceCode === sourceCode) : readPath(sourceCode, site.item, config.from.path);
      if (!configNode) return [];
      const definition = definitionAt(sourceCode, call, entry, site, configNode);
      return [config.kind === 'rebuilt' ? { ...definition, configRebuilt: true as const } : definition];
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

/** The tool a call defines through one wrapped definition, at one site, with `configNode` as its config. */
function definitionAt(sourceCode: SourceCode, call: TSESTree.CallExpression, entry: WrappedDefinition, { item, node }: WrapperItem, configNode: TSESTree.Node): ToolDefinition {
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
  return {
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
    if (readWrapperConfig(sourceCode, configNode, fn, tool.framework)) return true;
  }
  return false;
}
