import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import {
  type FunctionNode,
  getPropertyKeyName,
  getStaticValueOf,
  hasSpread,
  resolveLocalFunction,
} from '../ast/index.js';
import {
  createToolRecogniser,
  findPolicyProperty,
  getInputFieldNames,
  getToolLocation,
  type PolicyDeclaration,
  POLICY_FIELDS,
  type PolicyField,
  type ToolDefinition,
  type ToolFactory,
  type ToolFramework,
} from '../tools/index.js';

type SourceCode = Readonly<TSESLint.SourceCode>;

/** A policy field in the seed's spelling, as `@retrysafe/spec` reads policy data: `side_effects`, `idempotent`, `retry`, `max_attempts`. */
export type SeedPolicyField = (typeof POLICY_FIELDS)[PolicyField]['snakeCase'];

/** The policy fields a declaration states with a value known from the file alone, in the seed's spelling. */
export interface SeedPolicyFields {
  readonly side_effects?: string;
  readonly idempotent?: boolean | 'with_key';
  readonly retry?: string;
  readonly max_attempts?: number;
}

/** A tool's declared retry policy, as data. */
export interface DeclaredPolicy {
  /**
   * Where it is written: the `defineTool` (or `toolFactories`) config's own fields, `declarePolicy(tool,
   * policy)` from `@retrysafe/spec`, LangChain `metadata.retrysafe`, or MCP (and Mastra `mcp`)
   * `_meta["io.github.retrysafe/policy"]` (or the bare `_meta.retrysafe`).
   */
  readonly via: PolicyDeclaration['via'];
  /** The fields stated with a static value (a literal, a `const` of this file). */
  readonly fields: SeedPolicyFields;
  /** Fields that are stated but whose value the file does not show (an import, a call, a value of another type). */
  readonly unknownFields: readonly SeedPolicyField[];
  /** False when the policy object itself is not visible (`declarePolicy(tool, importedPolicy)`): every field is unknown. */
  readonly visible: boolean;
  /** The policy object spreads another, so fields it does not list may be set there. */
  readonly spreads: boolean;
  /** Where the policy is written (the whole config for `defineTool`). */
  readonly loc: TSESTree.SourceLocation;
}

/** MCP tool annotations (the protocol's `ToolAnnotations`), as far as the file shows them. */
export interface McpAnnotations {
  readonly title?: string;
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
  /** False when the annotations object is not visible (imported, or a variable of another module). */
  readonly visible: boolean;
}

/** A tool definition, as the rules recognise it, told as data. */
export interface RecognisedTool {
  /** The tool's name: its `name` (Mastra: `id`), the name it is registered under, or the property or variable it is assigned to. */
  readonly name: string | undefined;
  readonly framework: ToolFramework;
  /** Where `require-retry-policy` reports the tool: the defining call up to its callee, a tool object, a class name. */
  readonly loc: TSESTree.SourceLocation;
  readonly description: string | undefined;
  /** The declared retry policy; `undefined` when the tool declares none (MCP annotations aside). */
  readonly declaredPolicy: DeclaredPolicy | undefined;
  /** MCP annotations, for MCP and FastMCP tools that have them. */
  readonly annotations: McpAnnotations | undefined;
  /** The input schema's field names, when they are in plain sight (zod, JSON Schema, a `const` holding one). */
  readonly inputFields: readonly string[] | undefined;
  /** The handler as written: a function, or the expression that names one; none for a tool that a low-level MCP server lists. */
  readonly handler: TSESTree.Node | undefined;
  /** The handler as a function of this file (followed through `const`s, methods and helpers), when it is one. */
  readonly handlerFunction: FunctionNode | undefined;
  /** The recogniser's own record, for analyses built on the plugin's (the effects analysis reads the handler from it). */
  readonly definition: ToolDefinition;
}

/** Options of {@link recogniseTools}: the `toolFactories` the tool rules take. */
export interface RecogniseToolsOptions {
  /** Extra tool factories, as in the rules' `toolFactories` option: `{ name: 'createTool', from: 'my-lib' }`. */
  readonly toolFactories?: readonly ToolFactory[];
}


const toolsByFile = new WeakMap<SourceCode, Map<string, readonly RecognisedTool[]>>();

/**
 * Every tool definition in one file, in source order, recognised exactly as the tool rules recognise
 * them (`require-retry-policy`, `no-unsafe-retry-policy`, ...): from syntax and imports, with the same
 * frameworks (tools/frameworks) and `toolFactories`. Computed once per file and options.
 *
 * @param sourceCode The file, as a rule's `context.sourceCode` gives it (scopes analysed).
 * @returns The tools, each with its name, framework, location, declared policy as data and handler.
 */
export function recogniseTools(sourceCode: SourceCode, options: RecogniseToolsOptions = {}): readonly RecognisedTool[] {
  const key = JSON.stringify(options.toolFactories ?? []);
  let byOptions = toolsByFile.get(sourceCode);
  if (!byOptions) toolsByFile.set(sourceCode, (byOptions = new Map()));
  let tools = byOptions.get(key);
  if (!tools) byOptions.set(key, (tools = collectTools(sourceCode, options)));
  return tools;
}

function collectTools(sourceCode: SourceCode, options: RecogniseToolsOptions): readonly RecognisedTool[] {
  const recogniser = createToolRecogniser(sourceCode, { toolFactories: options.toolFactories ?? [] });
  if (!recogniser.mayDefineTools) return [];
  const tools: RecognisedTool[] = [];
  for (const site of recogniser.sites()) {
    for (const definition of site.definitions) tools.push(describeTool(sourceCode, definition));
  }
  return tools;
}

/** A recognised {@link ToolDefinition} (from the plugin's own recogniser) as data. */
export function describeTool(sourceCode: SourceCode, definition: ToolDefinition): RecognisedTool {
  const handler = definition.handler;
  return {
    name: definition.name,
    framework: definition.framework,
    loc: getToolLocation(sourceCode, definition),
    description: definition.description,
    declaredPolicy: definition.policy && describePolicy(sourceCode, definition, definition.policy),
    annotations: definition.annotationsNode ? describeAnnotations(sourceCode, definition.annotations) : undefined,
    inputFields: getInputFieldNames(sourceCode, definition.inputSchema),
    handler,
    handlerFunction: handler ? resolveLocalFunction(handler, sourceCode) : undefined,
    definition,
  };
}

const SEED_FIELDS = Object.keys(POLICY_FIELDS) as PolicyField[];

function describePolicy(sourceCode: SourceCode, tool: ToolDefinition, policy: PolicyDeclaration): DeclaredPolicy {
  const { object } = policy;
  const loc = policy.node.loc;
  if (!object) return { via: policy.via, fields: {}, unknownFields: [], visible: false, spreads: false, loc };
  // A home-grown factory's config may spell the fields either way, as require-retry-policy reads it.
  const via = tool.framework === 'custom' && policy.via === 'defineTool' ? undefined : policy.via;
  const fields: Record<string, unknown> = {};
  const unknownFields: SeedPolicyField[] = [];
  for (const field of SEED_FIELDS) {
    const property = findPolicyProperty(object, field, via);
    if (!property) continue;
    const seedName = POLICY_FIELDS[field].snakeCase;
    const value = getStaticValueOf(sourceCode, property.value);
    if (isFieldValue(field, value)) fields[seedName] = value;
    else unknownFields.push(seedName);
  }
  return { via: policy.via, fields: fields as SeedPolicyFields, unknownFields, visible: true, spreads: hasSpread(object), loc };
}

function isFieldValue(field: PolicyField, value: unknown): boolean {
  switch (field) {
    case 'idempotent':
      return typeof value === 'boolean' || value === 'with_key';
    case 'maxAttempts':
      return typeof value === 'number';
    default:
      return typeof value === 'string';
  }
}

const HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;

function describeAnnotations(sourceCode: SourceCode, annotations: TSESTree.ObjectExpression | undefined): McpAnnotations {
  if (!annotations) return { visible: false };
  const described: Record<string, unknown> = { visible: true };
  for (const property of annotations.properties) {
    if (property.type !== AST_NODE_TYPES.Property) continue;
    const name = getPropertyKeyName(property, sourceCode);
    const value = getStaticValueOf(sourceCode, property.value);
    if ((HINTS as readonly (string | undefined)[]).includes(name) && typeof value === 'boolean') described[name as string] = value;
    if (name === 'title' && typeof value === 'string') described['title'] = value;
  }
  return described as unknown as McpAnnotations;
}
