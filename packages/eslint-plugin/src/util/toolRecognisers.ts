import type { JSONSchema, TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES, ASTUtils } from '@typescript-eslint/utils';

import { getStaticPropertyName, normalizeModuleName, resolveReference } from './imports.js';

// One place that knows what a tool definition looks like in each framework, so that every rule
// (require-retry-policy, no-unsafe-retry-policy, require-key-passthrough) agrees on it. Everything
// is decided from syntax and imports: the frameworks are not installed where the rules run.
// The file is longer than most because the frameworks' shapes belong together.

type SourceCode = Readonly<TSESLint.SourceCode>;
type FunctionNode = TSESTree.ArrowFunctionExpression | TSESTree.FunctionDeclaration | TSESTree.FunctionExpression;

/** The framework a tool definition belongs to; `custom` comes from the `toolFactories` option. */
export type ToolFramework = 'ai-sdk' | 'custom' | 'langchain' | 'mcp' | 'mcp-low-level' | 'openai-agents' | 'retrysafe';

/** An extra tool factory, as given in a rule's `toolFactories` option. */
export interface ToolFactory {
  /** Export name, or a member path below the module such as `tools.create`. */
  readonly name: string;
  /** Module specifier it is imported from, e.g. `my-lib`. */
  readonly from: string;
  /** Index of the argument that holds the config object; `0` when left out. */
  readonly configArgument?: number;
}

/** JSON schema of the `toolFactories` option, shared by every rule that recognises tools. */
export const toolFactoriesSchema = {
  type: 'array',
  description: 'Functions or classes, beyond the built-in frameworks, whose calls define a tool.',
  items: {
    type: 'object',
    additionalProperties: false,
    required: ['name', 'from'],
    properties: {
      name: { type: 'string', description: 'Export name, or a member path such as `tools.create`.' },
      from: { type: 'string', description: 'Module it is imported from.' },
      configArgument: { type: 'integer', minimum: 0, description: 'Index of the config object argument (default 0).' },
    },
  },
} satisfies JSONSchema.JSONSchema4;

/** Where a tool's retry policy is written. */
export interface PolicyDeclaration {
  /**
   * `defineTool`: the fields of a `defineTool` (or `toolFactories`) config; `declarePolicy`: the
   * second argument of `declarePolicy(tool, policy)`; `mcpMeta`: MCP `_meta.retrysafe`;
   * `langchainMetadata`: LangChain `metadata.retrysafe`.
   */
  readonly via: 'declarePolicy' | 'defineTool' | 'langchainMetadata' | 'mcpMeta';
  /** The policy expression (the `declarePolicy` call itself when it has no second argument). */
  readonly node: TSESTree.Node;
  /** The policy's object literal, followed through `const` bindings; `undefined` when not visible. */
  readonly object: TSESTree.ObjectExpression | undefined;
}

/** A recognised tool definition. Parts that are not statically visible are `undefined`. */
export interface ToolDefinition {
  readonly framework: ToolFramework;
  /** The defining call or `new`, or the tool object literal of a low-level MCP server. */
  readonly node: TSESTree.CallExpression | TSESTree.NewExpression | TSESTree.ObjectExpression;
  /** The config argument as written (for MCP `server.tool(...)` overloads there is none). */
  readonly configNode: TSESTree.Node | undefined;
  /** The config's object literal, followed through `const` bindings; `undefined` when not visible. */
  readonly config: TSESTree.ObjectExpression | undefined;
  /** The tool's name; for AI SDK tools the property or variable it is assigned to. */
  readonly name: string | undefined;
  readonly description: string | undefined;
  /** The input schema expression: zod shape or object, JSON Schema, or a reference to one. */
  readonly inputSchema: TSESTree.Node | undefined;
  /** The handler: a function, or the expression that names one. */
  readonly handler: TSESTree.Node | undefined;
  /** MCP tool annotations as written, and their object literal when visible. */
  readonly annotationsNode: TSESTree.Node | undefined;
  readonly annotations: TSESTree.ObjectExpression | undefined;
  /** The declared retry policy, if any. */
  readonly policy: PolicyDeclaration | undefined;
}

/** Answers, for one file, which calls and objects define tools. */
export interface ToolRecogniser {
  /** The tool a call or `new` defines (framework factory or MCP registration), if any. */
  recogniseToolCall(node: TSESTree.CallExpression | TSESTree.NewExpression): ToolDefinition | undefined;
  /**
   * The tool objects a low-level MCP `setRequestHandler(ListToolsRequestSchema, handler)` call lists,
   * followed through `const` objects and arrays in the file. Each object is returned only once per
   * file, at the first handler that lists it.
   */
  listedTools(node: TSESTree.CallExpression): readonly ToolDefinition[];
  /** Both of the above: every tool definition a call or `new` makes. */
  definitionsAt(node: TSESTree.CallExpression | TSESTree.NewExpression): readonly ToolDefinition[];
}

interface KnownFactory {
  readonly framework: ToolFramework;
  readonly sources: readonly string[];
  readonly exportPath: string;
  readonly configArgument: number;
  /** For factories that take the handler as an argument (LangChain `tool(fn, config)`). */
  readonly handlerArgument?: number;
}

const AI_SDK = ['ai', '@ai-sdk/provider-utils'];
const AGENTS = ['@openai/agents', '@openai/agents-core'];
const LANGCHAIN = ['@langchain/core/tools', 'langchain', 'langchain/tools'];
const KNOWN_FACTORIES: readonly KnownFactory[] = [
  { framework: 'retrysafe', sources: ['@retrysafe/spec'], exportPath: 'defineTool', configArgument: 0 },
  { framework: 'ai-sdk', sources: AI_SDK, exportPath: 'tool', configArgument: 0 },
  { framework: 'ai-sdk', sources: AI_SDK, exportPath: 'dynamicTool', configArgument: 0 },
  { framework: 'openai-agents', sources: AGENTS, exportPath: 'tool', configArgument: 0 },
  { framework: 'langchain', sources: LANGCHAIN, exportPath: 'tool', configArgument: 1, handlerArgument: 0 },
  { framework: 'langchain', sources: LANGCHAIN, exportPath: 'DynamicStructuredTool', configArgument: 0 },
  { framework: 'langchain', sources: LANGCHAIN, exportPath: 'DynamicTool', configArgument: 0 },
];
const HANDLER_KEYS = ['execute', 'func', 'handler', 'run'];
const SCHEMA_KEYS = ['input', 'inputSchema', 'parameters', 'schema'];
const ANNOTATION_KEYS = new Set(['destructiveHint', 'idempotentHint', 'openWorldHint', 'readOnlyHint', 'title']);

/**
 * The retrysafe policy fields in their two spellings: camelCase in a `defineTool` config, the seed's
 * snake_case in policy data (`declarePolicy`, `metadata.retrysafe`, `_meta.retrysafe`).
 */
export const POLICY_FIELDS = {
  sideEffects: { camelCase: 'sideEffects', snakeCase: 'side_effects' },
  idempotent: { camelCase: 'idempotent', snakeCase: 'idempotent' },
  retry: { camelCase: 'retry', snakeCase: 'retry' },
  maxAttempts: { camelCase: 'maxAttempts', snakeCase: 'max_attempts' },
} as const;

/** A retrysafe policy field. */
export type PolicyField = keyof typeof POLICY_FIELDS;

/** The key `field` has in a policy declared `via` a given route. */
export function policyKey(field: PolicyField, via: PolicyDeclaration['via']): string {
  return via === 'defineTool' ? POLICY_FIELDS[field].camelCase : POLICY_FIELDS[field].snakeCase;
}

/** Whether a module is the MCP TypeScript SDK: v1 `@modelcontextprotocol/sdk`, v2 `@modelcontextprotocol/server`. */
export function isMcpModule(source: string): boolean {
  return ['@modelcontextprotocol/sdk', '@modelcontextprotocol/server'].some(
    (name) => source === name || source.startsWith(`${name}/`),
  );
}

/** Builds the recogniser for one file. Create it once per `create(context)`. */
export function createToolRecogniser(
  sourceCode: SourceCode,
  options: { readonly toolFactories?: readonly ToolFactory[] } = {},
): ToolRecogniser {
  const factories = [
    ...KNOWN_FACTORIES,
    ...(options.toolFactories ?? []).map((factory): KnownFactory => ({
      framework: 'custom',
      sources: [normalizeModuleName(factory.from)],
      exportPath: factory.name,
      configArgument: factory.configArgument ?? 0,
    })),
  ];
  let mcpFile: boolean | undefined;
  const isMcpFile = (): boolean => (mcpFile ??= importedModules(sourceCode.ast).some(isMcpModule));
  const listed = new Set<TSESTree.ObjectExpression>();

  function recogniseToolCall(node: TSESTree.CallExpression | TSESTree.NewExpression): ToolDefinition | undefined {
    const reference = resolveReference(sourceCode, node.callee);
    const factory =
      reference &&
      factories.find((f) => f.exportPath === reference.path.join('.') && f.sources.includes(reference.source));
    if (factory) return fromFactory(node, factory);
    const { callee } = node;
    if (node.type === AST_NODE_TYPES.CallExpression && callee.type === AST_NODE_TYPES.MemberExpression && isMcpFile()) {
      const method = getStaticPropertyName(callee);
      if (method === 'registerTool') return fromRegisterTool(node);
      if (method === 'tool') return fromToolOverload(node);
    }
    return undefined;
  }

  function fromFactory(node: TSESTree.CallExpression | TSESTree.NewExpression, factory: KnownFactory): ToolDefinition {
    const configNode = node.arguments[factory.configArgument];
    const config = resolveObject(sourceCode, configNode);
    const { framework, handlerArgument } = factory;
    const definesPolicy = framework === 'retrysafe' || (framework === 'custom' && hasPolicyField(config));
    const inlinePolicy: PolicyDeclaration | undefined =
      config && definesPolicy ? { via: 'defineTool', node: config, object: config } : undefined;
    const metadata = findProperty(config, 'metadata')?.value;
    const langchainPolicy = framework === 'langchain' ? nestedPolicy(metadata, 'langchainMetadata') : undefined;
    return {
      framework,
      node,
      configNode,
      config,
      name: staticString(sourceCode, findProperty(config, 'name')?.value) ?? contextualName(node),
      description: staticString(sourceCode, findProperty(config, 'description')?.value),
      inputSchema: firstPropertyValue(config, SCHEMA_KEYS),
      handler:
        handlerArgument === undefined ? firstPropertyValue(config, HANDLER_KEYS) : node.arguments[handlerArgument],
      annotationsNode: undefined,
      annotations: undefined,
      policy: declaredPolicyOf(node) ?? inlinePolicy ?? langchainPolicy,
    };
  }

  function fromRegisterTool(node: TSESTree.CallExpression): ToolDefinition | undefined {
    const [nameArgument, configArgument, handler] = node.arguments;
    if (!nameArgument || !configArgument) return undefined;
    const config = resolveObject(sourceCode, configArgument);
    return mcpDefinition('mcp', node, configArgument, {
      name: staticString(sourceCode, nameArgument),
      inputSchema: findProperty(config, 'inputSchema')?.value,
      handler,
      annotationsNode: findProperty(config, 'annotations')?.value,
    });
  }

  // server.tool(name, [description], [paramsSchema | annotations], [annotations], handler)
  function fromToolOverload(node: TSESTree.CallExpression): ToolDefinition | undefined {
    const [nameArgument, ...middle] = node.arguments;
    const handler = middle.pop();
    if (!nameArgument || !handler || !couldBeName(nameArgument) || !couldBeHandler(handler)) return undefined;
    const hasDescription = middle.length === 3 || (middle.length > 0 && startsWithDescription(middle));
    const description = staticString(sourceCode, hasDescription ? middle.shift() : undefined);
    const [first, second] = middle;
    let inputSchema = first;
    let annotationsNode = second;
    if (first && !second) {
      // One object: the SDK tells annotations from a schema at run time. An import or a parameter
      // may be either, so it stands for both (and gets the benefit of the doubt); a call or a
      // member read such as `Schema.shape` is taken for a schema.
      const object = resolveObject(sourceCode, first);
      const isAnnotations = object
        ? looksLikeAnnotations(object)
        : resolveConst(sourceCode, first).type === AST_NODE_TYPES.Identifier;
      inputSchema = object && isAnnotations ? undefined : first;
      annotationsNode = isAnnotations ? first : undefined;
    }
    const name = staticString(sourceCode, nameArgument);
    return { ...mcpDefinition('mcp', node, undefined, { name, inputSchema, handler, annotationsNode }), description };
  }

  // (description, X) or (schema, annotations): a string-like first argument is a description; so is
  // one that is not visibly an object, unless the second is visibly annotations.
  function startsWithDescription([first, second]: TSESTree.CallExpressionArgument[]): boolean {
    const isStringLike =
      staticString(sourceCode, first) !== undefined ||
      first?.type === AST_NODE_TYPES.TemplateLiteral ||
      (first?.type === AST_NODE_TYPES.BinaryExpression && first.operator === '+');
    if (isStringLike || !second) return isStringLike;
    return !resolveObject(sourceCode, first) && !looksLikeAnnotations(resolveObject(sourceCode, second));
  }

  function mcpDefinition(
    framework: 'mcp' | 'mcp-low-level',
    node: TSESTree.CallExpression | TSESTree.ObjectExpression,
    configNode: TSESTree.Node | undefined,
    parts: Pick<ToolDefinition, 'annotationsNode' | 'handler' | 'inputSchema' | 'name'>,
  ): ToolDefinition {
    const config = resolveObject(sourceCode, configNode);
    return {
      framework,
      node,
      configNode,
      config,
      ...parts,
      description: staticString(sourceCode, findProperty(config, 'description')?.value),
      annotations: resolveObject(sourceCode, parts.annotationsNode),
      policy: declaredPolicyOf(node) ?? nestedPolicy(findProperty(config, '_meta')?.value, 'mcpMeta'),
    };
  }

  function listedTools(node: TSESTree.CallExpression): readonly ToolDefinition[] {
    const { callee } = node;
    if (callee.type !== AST_NODE_TYPES.MemberExpression || getStaticPropertyName(callee) !== 'setRequestHandler') {
      return [];
    }
    const [schema, handlerArgument] = node.arguments;
    const handler = handlerArgument && resolveConst(sourceCode, handlerArgument);
    if (!schema || !isFunction(handler) || !isListToolsSchema(schema)) return [];
    const objects = new Set<TSESTree.ObjectExpression>();
    for (const returned of returnedExpressions(sourceCode, handler)) {
      const tools = findProperty(resolveObject(sourceCode, returned), 'tools')?.value;
      if (tools) collectToolObjects(tools, objects, 0);
    }
    return [...objects]
      .filter((object) => !listed.has(object))
      .map((object) => {
        listed.add(object);
        return mcpDefinition('mcp-low-level', object, object, {
          name: staticString(sourceCode, findProperty(object, 'name')?.value),
          inputSchema: findProperty(object, 'inputSchema')?.value,
          handler: undefined,
          annotationsNode: findProperty(object, 'annotations')?.value,
        });
      });
  }

  function isListToolsSchema(node: TSESTree.Node): boolean {
    if (node.type === AST_NODE_TYPES.Literal) return node.value === 'tools/list';
    const reference = resolveReference(sourceCode, node);
    return !!reference && isMcpModule(reference.source) && reference.path.at(-1) === 'ListToolsRequestSchema';
  }

  // `tools: [a, ...more, { name }]`, `tools: TOOLS`, `tools: Object.values(TOOLS)`, `cond ? A : B`.
  function collectToolObjects(node: TSESTree.Node, out: Set<TSESTree.ObjectExpression>, depth: number): void {
    if (depth > 8) return;
    const value = resolveConst(sourceCode, node);
    if (value.type === AST_NODE_TYPES.ObjectExpression) {
      if (findProperty(value, 'name')) out.add(value);
    } else if (value.type === AST_NODE_TYPES.ArrayExpression) {
      for (const element of value.elements) {
        const item = element?.type === AST_NODE_TYPES.SpreadElement ? element.argument : element;
        if (item) collectToolObjects(item, out, depth + 1);
      }
    } else if (value.type === AST_NODE_TYPES.ConditionalExpression) {
      collectToolObjects(value.consequent, out, depth + 1);
      collectToolObjects(value.alternate, out, depth + 1);
    } else if (value.type === AST_NODE_TYPES.CallExpression && isObjectValuesCall(value)) {
      for (const property of resolveObject(sourceCode, value.arguments[0])?.properties ?? []) {
        if (property.type === AST_NODE_TYPES.Property) collectToolObjects(property.value, out, depth + 1);
      }
    }
  }

  function isObjectValuesCall(node: TSESTree.CallExpression): boolean {
    const reference = resolveReference(sourceCode, node.callee);
    return reference?.path.join('.') === 'Object.values' && node.arguments.length === 1;
  }

  function nestedPolicy(
    container: TSESTree.Node | undefined,
    via: PolicyDeclaration['via'],
  ): PolicyDeclaration | undefined {
    const policy = findProperty(resolveObject(sourceCode, container), 'retrysafe')?.value;
    return policy && { via, node: policy, object: resolveObject(sourceCode, policy) };
  }

  // `declarePolicy(tool(...), policy)`, or `const t = tool(...)` with `declarePolicy(t, policy)` in the file.
  function declaredPolicyOf(node: TSESTree.Node): PolicyDeclaration | undefined {
    const outer = outermostWrapper(node);
    const call = asDeclarePolicyCall(sourceCode, outer.parent, outer);
    if (call) return policyOfCall(call);
    const declarator = outer.parent;
    if (declarator?.type !== AST_NODE_TYPES.VariableDeclarator || declarator.init !== outer) return undefined;
    for (const variable of sourceCode.getDeclaredVariables(declarator)) {
      for (const reference of variable.references) {
        const used = outermostWrapper(reference.identifier);
        const wrapping = asDeclarePolicyCall(sourceCode, used.parent, used);
        if (wrapping) return policyOfCall(wrapping);
      }
    }
    return undefined;
  }

  function policyOfCall(call: TSESTree.CallExpression): PolicyDeclaration {
    const policy = call.arguments[1];
    return { via: 'declarePolicy', node: policy ?? call, object: resolveObject(sourceCode, policy) };
  }

  function definitionsAt(node: TSESTree.CallExpression | TSESTree.NewExpression): readonly ToolDefinition[] {
    const definition = recogniseToolCall(node);
    if (definition) return [definition];
    return node.type === AST_NODE_TYPES.CallExpression ? listedTools(node) : [];
  }

  return { recogniseToolCall, listedTools, definitionsAt };
}

/** `declarePolicy(...)` from `@retrysafe/spec` whose first argument is `argument`, if `node` is one. */
function asDeclarePolicyCall(
  sourceCode: SourceCode,
  node: TSESTree.Node | undefined,
  argument: TSESTree.Node,
): TSESTree.CallExpression | undefined {
  if (node?.type !== AST_NODE_TYPES.CallExpression || node.arguments[0] !== argument) return undefined;
  return isDeclarePolicyCall(sourceCode, node) ? node : undefined;
}

/** Whether a call is `declarePolicy(tool, policy)` from `@retrysafe/spec`. */
export function isDeclarePolicyCall(sourceCode: SourceCode, node: TSESTree.CallExpression): boolean {
  const reference = resolveReference(sourceCode, node.callee);
  return reference?.source === '@retrysafe/spec' && reference.path.join('.') === 'declarePolicy';
}

/**
 * Where a missing declaration is reported: from the start of the call to the end of its callee
 * (`tool`, `server.registerTool`, `new DynamicStructuredTool`), or from a low-level tool object's
 * `{` to the end of its `name`.
 */
export function getToolLocation(tool: ToolDefinition): TSESTree.SourceLocation {
  const { node } = tool;
  const end = node.type === AST_NODE_TYPES.ObjectExpression ? (findProperty(node, 'name') ?? node) : node.callee;
  return { start: tool.node.loc.start, end: end.loc.end };
}

/** "Tool `refund_order`", or "This tool" when the name is not static. */
export function toolLabel(tool: Pick<ToolDefinition, 'name'>): string {
  return tool.name === undefined ? 'This tool' : `Tool \`${tool.name}\``;
}

/** The last property of an object literal with a static key `name` (the one that wins at runtime). */
export function findProperty(
  object: TSESTree.ObjectExpression | undefined,
  name: string,
): TSESTree.Property | undefined {
  let found: TSESTree.Property | undefined;
  for (const property of object?.properties ?? []) {
    if (property.type === AST_NODE_TYPES.Property && propertyKeyName(property) === name) found = property;
  }
  return found;
}

/**
 * The property for a retrysafe policy field: in the spelling `via` reads when given, else in either
 * spelling (for judging a declaration, where a typo in the spelling is not the point).
 */
export function findPolicyProperty(
  object: TSESTree.ObjectExpression | undefined,
  field: PolicyField,
  via?: PolicyDeclaration['via'],
): TSESTree.Property | undefined {
  const names = via ? [policyKey(field, via)] : [POLICY_FIELDS[field].camelCase, POLICY_FIELDS[field].snakeCase];
  return names.map((name) => findProperty(object, name)).find(Boolean);
}

/** Whether an object literal spreads another object, so its full set of keys is unknown. */
export function hasSpread(object: TSESTree.ObjectExpression): boolean {
  return object.properties.some((property) => property.type === AST_NODE_TYPES.SpreadElement);
}

/** An object literal, followed through `const` bindings, member reads and TS wrappers. */
export function resolveObject(
  sourceCode: SourceCode,
  node: TSESTree.Node | undefined,
): TSESTree.ObjectExpression | undefined {
  if (!node) return undefined;
  const value = resolveConst(sourceCode, node);
  return value.type === AST_NODE_TYPES.ObjectExpression ? value : undefined;
}

/**
 * Follows identifiers to the initialiser of a never-reassigned binding (or to a function
 * declaration) and static member reads into object literals; unwraps `as`, `satisfies`, `!`, `await`.
 */
export function resolveConst(sourceCode: SourceCode, node: TSESTree.Node, depth = 0): TSESTree.Node {
  const value = unwrap(node);
  if (depth > 8) return value;
  if (value.type === AST_NODE_TYPES.MemberExpression) {
    const name = getStaticPropertyName(value);
    const property = name === undefined ? undefined : findProperty(resolveObject(sourceCode, value.object), name);
    return property ? resolveConst(sourceCode, property.value, depth + 1) : value;
  }
  if (value.type !== AST_NODE_TYPES.Identifier) return value;
  const variable = ASTUtils.findVariable(sourceCode.getScope(value), value);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (def?.type === 'FunctionName') return def.node;
  if (def?.type !== 'Variable' || def.node.id.type !== AST_NODE_TYPES.Identifier || !def.node.init) return value;
  if (variable?.references.some((reference) => reference.isWrite() && !reference.init)) return value;
  return resolveConst(sourceCode, def.node.init, depth + 1);
}

/**
 * The field names of an input schema: a zod raw shape, `z.object({...})` (with `.strict()` and the
 * like), JSON Schema `{ type: 'object', properties }`, `zodToJsonSchema(x)`, or a `const` holding
 * one. `undefined` when the fields are not statically visible.
 */
export function getInputFieldNames(
  sourceCode: SourceCode,
  schema: TSESTree.Node | undefined,
  depth = 0,
): string[] | undefined {
  if (!schema || depth > 8) return undefined;
  const value = resolveConst(sourceCode, schema);
  if (value.type === AST_NODE_TYPES.ObjectExpression) {
    const properties = findProperty(value, 'properties');
    const isObjectSchema = staticString(sourceCode, findProperty(value, 'type')?.value) === 'object';
    if (isObjectSchema && !properties) return [];
    const isJsonSchema = isObjectSchema || !!findProperty(value, 'required');
    const shape = isJsonSchema ? resolveObject(sourceCode, properties?.value) : value;
    if (!shape || hasSpread(shape)) return undefined;
    const names = shape.properties.map((p) => (p.type === AST_NODE_TYPES.Property ? (propertyKeyName(p) ?? '') : ''));
    return names.map((name) => name.replace(/\?$/, '')); // arktype spells an optional key `name?`
  }
  if (value.type !== AST_NODE_TYPES.CallExpression) return undefined;
  const [first] = value.arguments;
  if (value.callee.type !== AST_NODE_TYPES.MemberExpression) return getInputFieldNames(sourceCode, first, depth + 1);
  const method = getStaticPropertyName(value.callee);
  if (method === 'object' || method === 'Object' || method === 'strictObject') {
    return getInputFieldNames(sourceCode, first, depth + 1);
  }
  const base = getInputFieldNames(sourceCode, value.callee.object, depth + 1);
  if (method === 'extend' || method === 'merge') {
    const extra = getInputFieldNames(sourceCode, first, depth + 1);
    return base && extra && [...base, ...extra];
  }
  return base ?? (method === 'toJSONSchema' ? getInputFieldNames(sourceCode, first, depth + 1) : undefined);
}

/** A static string value: a literal, a template without expressions, or a `const` holding one. */
export function staticString(sourceCode: SourceCode, node: TSESTree.Node | undefined): string | undefined {
  if (!node) return undefined;
  const value = ASTUtils.getStaticValue(node, sourceCode.getScope(node));
  return typeof value?.value === 'string' ? value.value : undefined;
}

function propertyKeyName(property: TSESTree.Property): string | undefined {
  if (property.key.type === AST_NODE_TYPES.Identifier && !property.computed) return property.key.name;
  if (property.key.type === AST_NODE_TYPES.Literal) return String(property.key.value);
  return undefined;
}

function firstPropertyValue(
  object: TSESTree.ObjectExpression | undefined,
  names: readonly string[],
): TSESTree.Node | undefined {
  return names.map((name) => findProperty(object, name)?.value).find(Boolean);
}

function hasPolicyField(object: TSESTree.ObjectExpression | undefined): boolean {
  return (['sideEffects', 'idempotent', 'retry'] as const).some((field) => findPolicyProperty(object, field));
}

/** Whether an argument could be a tool name: not an object, array, function or non-string literal. */
function couldBeName(node: TSESTree.Node): boolean {
  if (node.type === AST_NODE_TYPES.Literal) return typeof node.value === 'string';
  return !isFunction(node) && node.type !== AST_NODE_TYPES.ObjectExpression && node.type !== AST_NODE_TYPES.ArrayExpression;
}

/** Whether an argument could be a handler: not an object, array, string or other literal. */
function couldBeHandler(node: TSESTree.Node): boolean {
  const literals: readonly string[] = [
    AST_NODE_TYPES.ArrayExpression,
    AST_NODE_TYPES.Literal,
    AST_NODE_TYPES.ObjectExpression,
    AST_NODE_TYPES.TemplateLiteral,
  ];
  return !literals.includes(node.type);
}

// An object of only hint keys is annotations; the SDK treats anything else (even `{}`) as a schema.
function looksLikeAnnotations(object: TSESTree.ObjectExpression | undefined): boolean {
  if (!object || object.properties.length === 0) return false;
  return object.properties.every(
    (p) => p.type === AST_NODE_TYPES.Property && ANNOTATION_KEYS.has(propertyKeyName(p) ?? ''),
  );
}

function unwrap(node: TSESTree.Node): TSESTree.Node {
  switch (node.type) {
    case AST_NODE_TYPES.TSAsExpression:
    case AST_NODE_TYPES.TSSatisfiesExpression:
    case AST_NODE_TYPES.TSNonNullExpression:
    case AST_NODE_TYPES.TSTypeAssertion:
    case AST_NODE_TYPES.AwaitExpression:
      return unwrap(node.type === AST_NODE_TYPES.AwaitExpression ? node.argument : node.expression);
    default:
      return node;
  }
}

const TS_WRAPPERS = new Set<AST_NODE_TYPES>([
  AST_NODE_TYPES.TSAsExpression,
  AST_NODE_TYPES.TSNonNullExpression,
  AST_NODE_TYPES.TSSatisfiesExpression,
  AST_NODE_TYPES.TSTypeAssertion,
]);

/** The node itself, or the outermost `as` / `satisfies` / `!` around it. */
function outermostWrapper(node: TSESTree.Node): TSESTree.Node {
  let current = node;
  while (current.parent && TS_WRAPPERS.has(current.parent.type)) current = current.parent;
  return current;
}

function isFunction(node: TSESTree.Node | undefined): node is FunctionNode {
  return (
    node?.type === AST_NODE_TYPES.ArrowFunctionExpression ||
    node?.type === AST_NODE_TYPES.FunctionExpression ||
    node?.type === AST_NODE_TYPES.FunctionDeclaration
  );
}

/** The expressions a function returns (its expression body, or its `return` statements, not nested functions'). */
function returnedExpressions(sourceCode: SourceCode, fn: FunctionNode): TSESTree.Node[] {
  if (fn.body.type !== AST_NODE_TYPES.BlockStatement) return [fn.body];
  const found: TSESTree.Node[] = [];
  const visit = (node: TSESTree.Node): void => {
    if (node.type === AST_NODE_TYPES.ReturnStatement) {
      if (node.argument) found.push(node.argument);
      return;
    }
    if (isFunction(node)) return;
    for (const key of sourceCode.visitorKeys[node.type] ?? []) {
      const child = (node as unknown as Record<string, unknown>)[key];
      for (const item of Array.isArray(child) ? child : [child]) {
        if (item && typeof item === 'object' && 'type' in item) visit(item as TSESTree.Node);
      }
    }
  };
  for (const statement of fn.body.body) visit(statement);
  return found;
}

/** `tools: { refund: tool(...) }` → `refund`; `const refundTool = tool(...)` → `refundTool`. */
function contextualName(node: TSESTree.Node): string | undefined {
  let outer = outermostWrapper(node);
  if (outer.parent?.type === AST_NODE_TYPES.CallExpression && outer.parent.arguments[0] === outer) {
    outer = outermostWrapper(outer.parent); // declarePolicy(tool(...), ...)
  }
  const parent = outer.parent;
  if (parent?.type === AST_NODE_TYPES.Property && parent.value === outer) return propertyKeyName(parent);
  if (parent?.type === AST_NODE_TYPES.VariableDeclarator && parent.id.type === AST_NODE_TYPES.Identifier) {
    return parent.id.name;
  }
  return undefined;
}

/** The modules a file imports or requires (`const x = require('m')`, `require('m').x`) at its top level. */
function importedModules(program: TSESTree.Program): string[] {
  const modules: string[] = [];
  for (const statement of program.body) {
    if (statement.type === AST_NODE_TYPES.ImportDeclaration) modules.push(normalizeModuleName(statement.source.value));
    if (statement.type !== AST_NODE_TYPES.VariableDeclaration) continue;
    for (const declarator of statement.declarations) {
      let init = declarator.init;
      while (init?.type === AST_NODE_TYPES.MemberExpression) init = init.object;
      const source = init ? requiredModule(init) : undefined;
      if (source !== undefined) modules.push(source);
    }
  }
  return modules;
}

function requiredModule(node: TSESTree.Expression): string | undefined {
  if (node.type !== AST_NODE_TYPES.CallExpression) return undefined;
  const [argument] = node.arguments;
  const isRequire = node.callee.type === AST_NODE_TYPES.Identifier && node.callee.name === 'require';
  if (!isRequire || argument?.type !== AST_NODE_TYPES.Literal || typeof argument.value !== 'string') return undefined;
  return normalizeModuleName(argument.value);
}
