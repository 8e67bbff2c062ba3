import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import {
  findProperty,
  findVariableOf,
  getClassMember,
  getImportedModules,
  getStaticPropertyName,
  resolveConst,
  resolveObject,
  resolveReference,
  skipWrappers,
  staticString,
} from '../ast/index.js';
import { getDeclaredPolicy, getDeclarePolicyCallPolicy, getNestedConfigPolicy, isDeclarePolicyCall } from './declaredPolicies.js';
import { fastmcp } from './frameworks/index.js';
import type { PolicyDeclaration, ToolDefinition } from './toolDefinition.js';

// Tools added to a FastMCP server (the `fastmcp` package): `server.addTool({ name, description,
// parameters, annotations, _meta, execute })` and `server.addTools([...])`. FastMCP lists a tool's
// `annotations` and `_meta` as given, so they declare a policy as they do for the MCP SDK. `addTool`
// returns nothing, so `declarePolicy` is given the tool object, not the call. Like the MCP SDK's
// servers, a FastMCP server cannot be typed here: it counts when the file constructs it from the
// `fastmcp` import (`new FastMCP(...)`, also as a class field) or annotates it with that type.

type SourceCode = Readonly<TSESLint.SourceCode>;

const [FASTMCP_MODULE] = fastmcp.modules;
/** The server class whose methods add tools. */
const FASTMCP_CLASS = fastmcp.registrations[0].owner;

/** A FastMCP server's methods that add tools. */
export type FastMcpAddMethod = 'addTool' | 'addTools';

/** Whether the file imports or requires `fastmcp`: no other file can construct or name a FastMCP server. */
export function importsFastMcp(sourceCode: SourceCode): boolean {
  return getImportedModules(sourceCode).has(FASTMCP_MODULE);
}

/** Whether a call is `server.<method>(...)` on a FastMCP server this file constructs or types. */
export function isFastMcpCall(sourceCode: SourceCode, node: TSESTree.CallExpression, method: FastMcpAddMethod): boolean {
  const callee = skipWrappers(node.callee, { optionalChains: true });
  if (callee.type !== AST_NODE_TYPES.MemberExpression || getStaticPropertyName(callee) !== method) return false;
  return isFastMcpServer(sourceCode, skipWrappers(callee.object));
}

/** The tool `server.addTool(tool)` adds; reported at the call, as MCP registrations are. */
export function fromAddTool(sourceCode: SourceCode, node: TSESTree.CallExpression): ToolDefinition | undefined {
  const [argument] = node.arguments;
  return argument ? fastMcpDefinition(sourceCode, node, argument, readToolObject(sourceCode, argument)) : undefined;
}

/**
 * The tools `server.addTools([...])` adds: the tool objects of its array (through `const`s) that
 * are in plain sight, each reported at its own object.
 */
export function fromAddTools(sourceCode: SourceCode, node: TSESTree.CallExpression): ToolDefinition[] {
  const [argument] = node.arguments;
  const list = argument && resolveConst(sourceCode, argument);
  if (list?.type !== AST_NODE_TYPES.ArrayExpression) return [];
  const tools: ToolDefinition[] = [];
  for (const element of list.elements) {
    if (!element || element.type === AST_NODE_TYPES.SpreadElement) continue;
    const tool = readToolObject(sourceCode, element);
    if (tool.object) tools.push(fastMcpDefinition(sourceCode, tool.object, element, tool));
  }
  return tools;
}

/** FastMCP's `Tool`: `name`, `description`, `parameters` (Standard Schema), `execute`, `annotations`, `_meta`. */
function fastMcpDefinition(
  sourceCode: SourceCode,
  node: TSESTree.CallExpression | TSESTree.ObjectExpression,
  argument: TSESTree.Node,
  { object, declared }: ToolObject,
): ToolDefinition {
  const annotationsNode = findProperty(object, 'annotations')?.value;
  return {
    framework: 'mcp',
    node,
    configNode: argument,
    config: object,
    name: staticString(sourceCode, findProperty(object, 'name')?.value),
    description: staticString(sourceCode, findProperty(object, 'description')?.value),
    inputSchema: findProperty(object, 'parameters')?.value,
    handler: findProperty(object, 'execute')?.value,
    annotationsNode,
    annotations: resolveObject(sourceCode, annotationsNode),
    policy: declared ?? getNestedConfigPolicy(sourceCode, object, fastmcp.policy),
  };
}

/** A tool object as an argument holds it, and the policy `declarePolicy` gives it. */
interface ToolObject {
  readonly object: TSESTree.ObjectExpression | undefined;
  readonly declared: PolicyDeclaration | undefined;
}

/**
 * The tool object an argument holds, and the policy `declarePolicy` gives it: wrapped in place
 * (`declarePolicy({...}, policy)`, also through a `const`), or a `const` tool object passed to
 * `declarePolicy` elsewhere in the file.
 */
function readToolObject(sourceCode: SourceCode, argument: TSESTree.Node): ToolObject {
  const value = resolveConst(sourceCode, argument);
  if (value.type === AST_NODE_TYPES.CallExpression && isDeclarePolicyCall(sourceCode, value)) {
    return { object: resolveObject(sourceCode, value.arguments[0]), declared: getDeclarePolicyCallPolicy(sourceCode, value) };
  }
  const object = value.type === AST_NODE_TYPES.ObjectExpression ? value : undefined;
  return { object, declared: object && getDeclaredPolicy(sourceCode, object) };
}

/**
 * `server` bound by `new FastMCP(...)` or annotated `FastMCP` (a variable or a parameter), or
 * `this.server` of a class that assigns it `new FastMCP(...)`.
 */
function isFastMcpServer(sourceCode: SourceCode, receiver: TSESTree.Node): boolean {
  if (receiver.type === AST_NODE_TYPES.MemberExpression && receiver.object.type === AST_NODE_TYPES.ThisExpression) {
    const name = getStaticPropertyName(receiver);
    const member = name === undefined ? undefined : getClassMember(receiver, name, sourceCode);
    return member?.values.some((value) => isNewFastMcp(sourceCode, value)) ?? false;
  }
  if (receiver.type !== AST_NODE_TYPES.Identifier) return false;
  const def = findVariableOf(receiver, sourceCode)?.defs[0];
  if (def?.type === 'Variable') return (!!def.node.init && isNewFastMcp(sourceCode, def.node.init)) || isTypedFastMcp(sourceCode, def.name);
  return def?.type === 'Parameter' && isTypedFastMcp(sourceCode, def.name);
}

/** `new FastMCP(...)` with `FastMCP` from `fastmcp`. */
function isNewFastMcp(sourceCode: SourceCode, node: TSESTree.Node): boolean {
  const value = skipWrappers(node);
  return value.type === AST_NODE_TYPES.NewExpression && isFastMcpClass(sourceCode, value.callee);
}

/** `server: FastMCP` or `server: FastMCP<Auth>`. */
function isTypedFastMcp(sourceCode: SourceCode, name: TSESTree.BindingName): boolean {
  const type = name.type === AST_NODE_TYPES.Identifier ? name.typeAnnotation?.typeAnnotation : undefined;
  return type?.type === AST_NODE_TYPES.TSTypeReference && isFastMcpClass(sourceCode, type.typeName);
}

function isFastMcpClass(sourceCode: SourceCode, node: TSESTree.Node): boolean {
  const reference = resolveReference(sourceCode, node);
  return reference?.source === FASTMCP_MODULE && reference.path.join('.') === FASTMCP_CLASS;
}
