import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import {
  findProperty,
  getPropertyKeyName,
  getRequiredModule,
  getStaticPropertyName,
  isFunctionNode,
  normalizeModuleName,
  resolveConst,
  resolveObject,
  staticString,
} from '../ast/index.js';
import { getDeclaredPolicy, getNestedConfigPolicy } from './declaredPolicies.js';
import { getPolicyLocation, isFrameworkModule, mcp } from './frameworks/index.js';
import type { ToolDefinition } from './toolDefinition.js';

// Tools registered on an MCP TypeScript SDK server: `server.registerTool(name, config, handler)` and
// the older `server.tool(...)` overloads. Registration is a method call on a server object that the
// rules cannot type, so it counts only in a file that imports the SDK. (Tools listed by a low-level
// `Server`'s `tools/list` handler are in mcpLowLevelTools.ts.)

type SourceCode = Readonly<TSESLint.SourceCode>;

const ANNOTATION_KEYS = new Set(['destructiveHint', 'idempotentHint', 'openWorldHint', 'readOnlyHint', 'title']);
const NOT_A_HANDLER: ReadonlySet<string> = new Set([
  AST_NODE_TYPES.ArrayExpression,
  AST_NODE_TYPES.Literal,
  AST_NODE_TYPES.ObjectExpression,
  AST_NODE_TYPES.TemplateLiteral,
]);

/** The parts of an MCP tool definition that differ between the ways of registering one. */
export type McpToolParts = Pick<ToolDefinition, 'annotationsNode' | 'handler' | 'inputSchema' | 'name'>;

/** Whether a module is the MCP TypeScript SDK: v1 `@modelcontextprotocol/sdk`, v2 `@modelcontextprotocol/server`. */
export function isMcpModule(source: string): boolean {
  return isFrameworkModule(mcp, source);
}

/** Whether the file imports or requires the MCP SDK at its top level. */
export function importsMcpSdk(program: TSESTree.Program): boolean {
  return importedModules(program).some(isMcpModule);
}

/** The tool a `server.registerTool(...)` or `server.tool(...)` call registers, if it is one. */
export function fromMcpRegistration(sourceCode: SourceCode, node: TSESTree.CallExpression): ToolDefinition | undefined {
  const { callee } = node;
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const method = getStaticPropertyName(callee);
  if (method === 'registerTool') return fromRegisterTool(sourceCode, node);
  if (method === 'tool') return fromToolOverload(sourceCode, node);
  return undefined;
}

/** Builds an MCP tool definition: the config's description and `_meta["io.github.retrysafe/policy"]` (or the bare `_meta.retrysafe`), or a `declarePolicy`. */
export function mcpDefinition(
  sourceCode: SourceCode,
  framework: 'mcp' | 'mcp-low-level',
  node: TSESTree.CallExpression | TSESTree.ObjectExpression,
  configNode: TSESTree.Node | undefined,
  parts: McpToolParts,
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
    policy: getDeclaredPolicy(sourceCode, node) ?? getNestedConfigPolicy(sourceCode, config, getPolicyLocation(framework)),
  };
}

// server.registerTool(name, { description, inputSchema, annotations, _meta }, handler)
function fromRegisterTool(sourceCode: SourceCode, node: TSESTree.CallExpression): ToolDefinition | undefined {
  const [nameArgument, configArgument, handler] = node.arguments;
  if (!nameArgument || !configArgument) return undefined;
  const config = resolveObject(sourceCode, configArgument);
  return mcpDefinition(sourceCode, 'mcp', node, configArgument, {
    name: staticString(sourceCode, nameArgument),
    inputSchema: findProperty(config, 'inputSchema')?.value,
    handler,
    annotationsNode: findProperty(config, 'annotations')?.value,
  });
}

// server.tool(name, [description], [paramsSchema | annotations], [annotations], handler)
function fromToolOverload(sourceCode: SourceCode, node: TSESTree.CallExpression): ToolDefinition | undefined {
  const [nameArgument, ...middle] = node.arguments;
  const handler = middle.pop();
  if (!nameArgument || !handler || !couldBeName(nameArgument) || !couldBeHandler(handler)) return undefined;
  const hasDescription = middle.length === 3 || (middle.length > 0 && startsWithDescription(sourceCode, middle));
  const description = staticString(sourceCode, hasDescription ? middle.shift() : undefined);
  const [first, second] = middle;
  const { inputSchema, annotationsNode } = first && !second ? readSchemaOrAnnotations(sourceCode, first) : { inputSchema: first, annotationsNode: second };
  const name = staticString(sourceCode, nameArgument);
  return { ...mcpDefinition(sourceCode, 'mcp', node, undefined, { name, inputSchema, handler, annotationsNode }), description };
}

/**
 * One object between the name (and description) and the handler: the SDK tells annotations from a
 * schema at run time. An import or a parameter may be either, so it stands for both (and gets the
 * benefit of the doubt); a call or a member read such as `Schema.shape` is taken for a schema.
 */
function readSchemaOrAnnotations(sourceCode: SourceCode, argument: TSESTree.Node): Pick<McpToolParts, 'annotationsNode' | 'inputSchema'> {
  const object = resolveObject(sourceCode, argument);
  const isAnnotations = object
    ? looksLikeAnnotations(object)
    : resolveConst(sourceCode, argument).type === AST_NODE_TYPES.Identifier;
  return {
    inputSchema: object && isAnnotations ? undefined : argument,
    annotationsNode: isAnnotations ? argument : undefined,
  };
}

// (description, X) or (schema, annotations): a string-like first argument is a description; so is
// one that is not visibly an object, unless the second is visibly annotations.
function startsWithDescription(sourceCode: SourceCode, [first, second]: TSESTree.CallExpressionArgument[]): boolean {
  const isStringLike =
    staticString(sourceCode, first) !== undefined ||
    first?.type === AST_NODE_TYPES.TemplateLiteral ||
    (first?.type === AST_NODE_TYPES.BinaryExpression && first.operator === '+');
  if (isStringLike || !second) return isStringLike;
  return !resolveObject(sourceCode, first) && !looksLikeAnnotations(resolveObject(sourceCode, second));
}

/** Whether an argument could be a tool name: not an object, array, function or non-string literal. */
function couldBeName(node: TSESTree.Node): boolean {
  if (node.type === AST_NODE_TYPES.Literal) return typeof node.value === 'string';
  return !isFunctionNode(node) && node.type !== AST_NODE_TYPES.ObjectExpression && node.type !== AST_NODE_TYPES.ArrayExpression;
}

/** Whether an argument could be a handler: not an object, array, string or other literal. */
function couldBeHandler(node: TSESTree.Node): boolean {
  return !NOT_A_HANDLER.has(node.type);
}

// An object of only hint keys with plain values is annotations; the SDK treats anything else (even
// `{}`) as a schema. The values matter: `{ title: z.string() }` is a schema with a field named title.
function looksLikeAnnotations(object: TSESTree.ObjectExpression | undefined): boolean {
  if (!object || object.properties.length === 0) return false;
  return object.properties.every(
    (p) => p.type === AST_NODE_TYPES.Property && ANNOTATION_KEYS.has(getPropertyKeyName(p) ?? '') && isPlainHintValue(p.value),
  );
}

/** A value an annotation can have (a boolean or a title, possibly from a variable); not a schema builder call. */
function isPlainHintValue(value: TSESTree.Node): boolean {
  return PLAIN_HINT_VALUE_TYPES.has(value.type);
}

const PLAIN_HINT_VALUE_TYPES: ReadonlySet<AST_NODE_TYPES> = new Set([
  AST_NODE_TYPES.Literal,
  AST_NODE_TYPES.TemplateLiteral,
  AST_NODE_TYPES.UnaryExpression,
  AST_NODE_TYPES.Identifier,
]);

/** The modules a file imports or requires (`const x = require('m')`, `require('m').x`, `__toESM(require('m'))`) at its top level. */
function importedModules(program: TSESTree.Program): string[] {
  const modules: string[] = [];
  for (const statement of program.body) {
    if (statement.type === AST_NODE_TYPES.ImportDeclaration) modules.push(normalizeModuleName(statement.source.value));
    if (statement.type !== AST_NODE_TYPES.VariableDeclaration) continue;
    for (const declarator of statement.declarations) {
      const source = declarator.init ? getRequiredModule(declarator.init)?.source : undefined;
      if (source !== undefined) modules.push(source);
    }
  }
  return modules;
}
