import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import {
  findProperty,
  firstPropertyValue,
  getChainRootName,
  getImportBoundNames,
  getPropertyKeyName,
  normalizeModuleName,
  outermostTypeWrapper,
  resolveObject,
  resolveReference,
  staticString,
} from '../ast/index.js';
import { getDeclaredPolicy, getNestedConfigPolicy } from './declaredPolicies.js';
import { type FactoryEntry, FRAMEWORKS, type PolicyLocation, type ToolFramework } from './frameworks/index.js';
import { hasPolicyField } from './policyFields.js';
import type { PolicyDeclaration, ToolDefinition, ToolFactory } from './toolDefinition.js';

// Tools defined by calling a factory imported from a framework: the `factories` of the catalogue's
// entries (tools/frameworks: @retrysafe/spec's `defineTool`, the AI SDK's `tool()`, OpenAI Agents'
// `tool()`, LangChain's `tool()` and `new DynamicStructuredTool(...)` ...), and the user's own
// `toolFactories`. (MCP servers register tools instead: see mcpTools.ts and fastMcpTools.ts;
// LangChain tools written as subclasses are in langchainClassTools.ts.)

type SourceCode = Readonly<TSESLint.SourceCode>;

/** A function or class whose call defines a tool, and where its parts are. */
export interface KnownFactory {
  readonly framework: ToolFramework;
  readonly sources: readonly string[];
  readonly exportPath: string;
  readonly configArgument: number;
  /** For factories that take the handler as an argument (LangChain `tool(fn, config)`). */
  readonly handlerArgument?: number;
  /** The config property that names the tool, when it is not `name`. */
  readonly nameProperty?: string;
  /** Where the framework's tools declare a policy; a `toolFactories` factory has no entry. */
  readonly policy?: PolicyLocation;
}

/** The factories of the catalogue's frameworks (tools/frameworks), in its order. */
const KNOWN_FACTORIES: readonly KnownFactory[] = FRAMEWORKS.flatMap((entry) =>
  entry.factories.map((factory: FactoryEntry): KnownFactory => ({
    framework: entry.framework,
    sources: entry.modules,
    exportPath: factory.export,
    configArgument: factory.configArgument,
    ...(factory.handlerArgument === undefined ? {} : { handlerArgument: factory.handlerArgument }),
    ...(factory.nameProperty === undefined ? {} : { nameProperty: factory.nameProperty }),
    policy: entry.policy,
  })),
);
const HANDLER_KEYS = ['execute', 'func', 'handler', 'run'];
const SCHEMA_KEYS = ['input', 'inputSchema', 'parameters', 'schema'];

const factoriesByOption = new WeakMap<readonly ToolFactory[], readonly KnownFactory[]>();

/**
 * The built-in factories followed by the user's `toolFactories`. The same list for the same option
 * array, so that per-file caches keyed on it hit (rules get the same options for every file).
 */
export function getToolFactories(toolFactories: readonly ToolFactory[] = []): readonly KnownFactory[] {
  if (toolFactories.length === 0) return KNOWN_FACTORIES;
  let factories = factoriesByOption.get(toolFactories);
  if (!factories) factoriesByOption.set(toolFactories, (factories = buildFactories(toolFactories)));
  return factories;
}

function buildFactories(toolFactories: readonly ToolFactory[]): KnownFactory[] {
  return [
    ...KNOWN_FACTORIES,
    ...toolFactories.map((factory): KnownFactory => ({
      framework: 'custom',
      sources: [normalizeModuleName(factory.from)],
      exportPath: factory.name,
      configArgument: factory.configArgument ?? 0,
    })),
  ];
}

/** The factory a call's or `new`'s callee names through its import, if any. */
export function findFactory(
  sourceCode: SourceCode,
  callee: TSESTree.Node,
  factories: readonly KnownFactory[],
): KnownFactory | undefined {
  // A factory is an import of a module the file imports (`getImportedFactories`): a callee rooted
  // at a name no import binds is a local or a global, and needs no scope lookup.
  const root = getChainRootName(callee);
  if (root !== undefined && getImportBoundNames(sourceCode)?.has(root) === false) return undefined;
  const reference = resolveReference(sourceCode, callee);
  if (!reference) return undefined;
  const path = reference.path.join('.');
  return factories.find((factory) => factory.exportPath === path && factory.sources.includes(reference.source));
}

/** The tool a factory call defines. */
export function fromFactory(
  sourceCode: SourceCode,
  node: TSESTree.CallExpression | TSESTree.NewExpression,
  factory: KnownFactory,
): ToolDefinition {
  const configNode = node.arguments[factory.configArgument];
  const config = resolveObject(sourceCode, configNode);
  const { framework, handlerArgument, nameProperty = 'name' } = factory;
  return {
    framework,
    node,
    configNode,
    config,
    name:
      staticString(sourceCode, findProperty(config, nameProperty)?.value) ??
      // A `toolFactories` factory shaped like a registration (`addTool(server, 'refund', config, handler)`):
      // the static string argument nearest before the config.
      (framework === 'custom' ? leadingName(sourceCode, node, factory.configArgument) : undefined) ??
      contextualName(node),
    description: staticString(sourceCode, findProperty(config, 'description')?.value),
    inputSchema: firstPropertyValue(config, SCHEMA_KEYS),
    handler: handlerArgument === undefined ? firstPropertyValue(config, HANDLER_KEYS) : node.arguments[handlerArgument],
    annotationsNode: undefined,
    annotations: undefined,
    policy: getDeclaredPolicy(sourceCode, node) ?? configPolicy(sourceCode, factory, config),
  };
}

/**
 * A policy in the config itself, where the framework's entry says: its own fields (`defineTool`,
 * and a custom factory's config that states one), or a nested `retrysafe` object (LangChain
 * `metadata.retrysafe`).
 */
function configPolicy(
  sourceCode: SourceCode,
  factory: KnownFactory,
  config: TSESTree.ObjectExpression | undefined,
): PolicyDeclaration | undefined {
  const definesPolicy = factory.policy?.configFields === true || (factory.framework === 'custom' && hasPolicyField(config));
  if (config && definesPolicy) return { via: 'defineTool', node: config, object: config };
  return factory.policy && getNestedConfigPolicy(sourceCode, config, factory.policy);
}

/** The last argument before `configArgument` that is a static string (a registration-shaped factory's tool name). */
function leadingName(sourceCode: SourceCode, node: TSESTree.CallExpression | TSESTree.NewExpression, configArgument: number): string | undefined {
  for (let index = Math.min(configArgument, node.arguments.length) - 1; index >= 0; index--) {
    const argument = node.arguments[index];
    const name = argument && argument.type !== AST_NODE_TYPES.SpreadElement ? staticString(sourceCode, argument) : undefined;
    if (name !== undefined) return name;
  }
  return undefined;
}

/** `tools: { refund: tool(...) }` → `refund`; `const refundTool = tool(...)` → `refundTool`. */
export function contextualName(node: TSESTree.Node): string | undefined {
  let outer = outermostTypeWrapper(node);
  if (outer.parent?.type === AST_NODE_TYPES.CallExpression && outer.parent.arguments[0] === outer) {
    outer = outermostTypeWrapper(outer.parent); // declarePolicy(tool(...), ...)
  }
  const parent = outer.parent;
  if (parent?.type === AST_NODE_TYPES.Property && parent.value === outer) return getPropertyKeyName(parent);
  if (parent?.type === AST_NODE_TYPES.VariableDeclarator && parent.id.type === AST_NODE_TYPES.Identifier) {
    return parent.id.name;
  }
  return undefined;
}
