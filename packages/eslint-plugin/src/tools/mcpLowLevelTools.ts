import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import {
  findProperty,
  getReturnedExpressions,
  getStaticPropertyName,
  isFunctionNode,
  resolveConst,
  resolveObject,
  resolveReference,
  staticString,
} from '../ast/index.js';
import { mcpLowLevel } from './frameworks/index.js';
import { findCallToolBranch } from './callToolBranches.js';
import { isMcpModule, mcpDefinition } from './mcpTools.js';
import type { ToolDefinition } from './toolDefinition.js';

// Tools of a low-level MCP `Server`: plain objects listed by the handler registered with
// `server.setRequestHandler(ListToolsRequestSchema, handler)`, as the reference servers write them.

type SourceCode = Readonly<TSESLint.SourceCode>;

/** The handler registration that lists tools: `setRequestHandler(ListToolsRequestSchema, ...)`, or `'tools/list'`. */
const [TOOL_LIST] = mcpLowLevel.toolLists;

/** How deep arrays, spreads, conditionals and `Object.values` are followed to find tool objects. */
const MAX_LIST_DEPTH = 8;

/**
 * The tool objects a `setRequestHandler(ListToolsRequestSchema, handler)` call lists (every `return`
 * of the handler, `tools: [...]` followed through `const` objects and arrays), in source order.
 */
export function getListedToolObjects(sourceCode: SourceCode, node: TSESTree.CallExpression): readonly TSESTree.ObjectExpression[] {
  const { callee } = node;
  if (callee.type !== AST_NODE_TYPES.MemberExpression || getStaticPropertyName(callee) !== TOOL_LIST.method) {
    return NO_OBJECTS;
  }
  const [schema, handlerArgument] = node.arguments;
  const handler = handlerArgument && resolveConst(sourceCode, handlerArgument);
  if (!schema || !isFunctionNode(handler) || !isListToolsSchema(sourceCode, schema)) return NO_OBJECTS;
  const objects = new Set<TSESTree.ObjectExpression>();
  for (const returned of getReturnedExpressions(handler, sourceCode)) {
    const tools = findProperty(resolveObject(sourceCode, returned), 'tools')?.value;
    if (tools) collectToolObjects(sourceCode, tools, objects, 0);
  }
  return [...objects];
}

/** What a call that lists no tools lists (asked of every call of a file that names `setRequestHandler`). */
const NO_OBJECTS: readonly TSESTree.ObjectExpression[] = [];

/** The definition of one listed tool object: `{ name, description, inputSchema, annotations, _meta }`. */
export function fromListedToolObject(sourceCode: SourceCode, object: TSESTree.ObjectExpression): ToolDefinition {
  const name = staticString(sourceCode, findProperty(object, 'name')?.value);
  return mcpDefinition(sourceCode, 'mcp-low-level', object, object, {
    name,
    inputSchema: findProperty(object, 'inputSchema')?.value,
    // The branch of the CallTool handler that runs for this name, if the file dispatches on it.
    handler: name === undefined ? undefined : findCallToolBranch(sourceCode, name),
    annotationsNode: findProperty(object, 'annotations')?.value,
  });
}

function isListToolsSchema(sourceCode: SourceCode, node: TSESTree.Node): boolean {
  if (node.type === AST_NODE_TYPES.Literal) return node.value === TOOL_LIST.requestMethod;
  const reference = resolveReference(sourceCode, node);
  return !!reference && isMcpModule(reference.source) && reference.path.at(-1) === TOOL_LIST.schemaExport;
}

// `tools: [a, ...more, { name }]`, `tools: TOOLS`, `tools: Object.values(TOOLS)`, `cond ? A : B`.
function collectToolObjects(
  sourceCode: SourceCode,
  node: TSESTree.Node,
  out: Set<TSESTree.ObjectExpression>,
  depth: number,
): void {
  if (depth > MAX_LIST_DEPTH) return;
  const value = resolveConst(sourceCode, node);
  const collect = (child: TSESTree.Node): void => collectToolObjects(sourceCode, child, out, depth + 1);
  if (value.type === AST_NODE_TYPES.ObjectExpression) {
    if (findProperty(value, 'name')) out.add(value);
  } else if (value.type === AST_NODE_TYPES.ArrayExpression) {
    for (const element of value.elements) {
      const item = element?.type === AST_NODE_TYPES.SpreadElement ? element.argument : element;
      if (item) collect(item);
    }
  } else if (value.type === AST_NODE_TYPES.ConditionalExpression) {
    collect(value.consequent);
    collect(value.alternate);
  } else if (value.type === AST_NODE_TYPES.CallExpression && isObjectValuesCall(sourceCode, value)) {
    for (const property of resolveObject(sourceCode, value.arguments[0])?.properties ?? []) {
      if (property.type === AST_NODE_TYPES.Property) collect(property.value);
    }
  }
}

function isObjectValuesCall(sourceCode: SourceCode, node: TSESTree.CallExpression): boolean {
  const reference = resolveReference(sourceCode, node.callee);
  return reference?.path.join('.') === 'Object.values' && node.arguments.length === 1;
}
