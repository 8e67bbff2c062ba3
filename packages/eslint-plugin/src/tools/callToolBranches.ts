import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES, ASTUtils } from '@typescript-eslint/utils';

import { getCallsAndClasses, getStaticPropertyName, isFunctionNode, resolveConst, resolveReference, skipWrappers, walk } from '../ast/index.js';
import { isMcpModule } from './mcpTools.js';

// The handler of one tool of a low-level MCP `Server`: the branch of the
// `setRequestHandler(CallToolRequestSchema, handler)` handler that runs for the tool's name, written
// as `switch (request.params.name) { case 'set': … }` or `if (name === 'set') { … }`, the way the
// reference servers dispatch. It is what a tool object listed by `tools/list` does when called.

type SourceCode = Readonly<TSESLint.SourceCode>;

/** The statements that run for each tool name, per file. */
const branchesByFile = new WeakMap<SourceCode, ReadonlyMap<string, TSESTree.Node>>();

/** The branch of the file's CallTool handler that runs for tool `name`: a `case` or an `if` block. */
export function findCallToolBranch(sourceCode: SourceCode, name: string): TSESTree.Node | undefined {
  let branches = branchesByFile.get(sourceCode);
  if (!branches) {
    branches = collectBranches(sourceCode);
    branchesByFile.set(sourceCode, branches);
  }
  return branches.get(name);
}

function collectBranches(sourceCode: SourceCode): Map<string, TSESTree.Node> {
  const branches = new Map<string, TSESTree.Node>();
  if (!sourceCode.text.includes('CallToolRequestSchema') && !sourceCode.text.includes('tools/call')) return branches;
  // The file's calls in source order, from the list the tool recogniser reads too.
  for (const node of getCallsAndClasses(sourceCode)) {
    const handler = node.type === AST_NODE_TYPES.CallExpression ? callToolHandler(sourceCode, node) : undefined;
    if (handler) collectFrom(sourceCode, handler, branches);
  }
  return branches;
}

/** The function of `setRequestHandler(CallToolRequestSchema, fn)`. */
function callToolHandler(sourceCode: SourceCode, node: TSESTree.CallExpression): TSESTree.FunctionLike | undefined {
  const { callee } = node;
  if (callee.type !== AST_NODE_TYPES.MemberExpression || getStaticPropertyName(callee) !== 'setRequestHandler') return undefined;
  const [schema, argument] = node.arguments;
  if (!schema || !argument) return undefined;
  const isCallTool =
    (schema.type === AST_NODE_TYPES.Literal && schema.value === 'tools/call') ||
    (() => {
      const reference = resolveReference(sourceCode, schema);
      return !!reference && isMcpModule(reference.source) && reference.path.at(-1) === 'CallToolRequestSchema';
    })();
  const handler = isCallTool ? resolveConst(sourceCode, argument) : undefined;
  return isFunctionNode(handler) ? handler : undefined;
}

/** Every `switch` and `if` in the handler that tests the tool's name, and what runs for each name. */
function collectFrom(sourceCode: SourceCode, handler: TSESTree.FunctionLike, branches: Map<string, TSESTree.Node>): void {
  walk(handler, sourceCode, (node) => {
    if (isFunctionNode(node)) return false;
    if (node.type === AST_NODE_TYPES.SwitchStatement && isToolName(sourceCode, node.discriminant)) {
      node.cases.forEach((switchCase, index) => {
        const name = switchCase.test?.type === AST_NODE_TYPES.Literal ? switchCase.test.value : undefined;
        // `case 'a': case 'b': …` falls through to the first case with statements.
        const body = node.cases.slice(index).find((candidate) => candidate.consequent.length > 0);
        if (typeof name === 'string' && body && !branches.has(name)) branches.set(name, body);
      });
    }
    if (node.type === AST_NODE_TYPES.IfStatement) {
      const name = testedName(sourceCode, node.test);
      if (name !== undefined && !branches.has(name)) branches.set(name, node.consequent);
    }
    return true;
  });
}

/** `name === 'set'` or `'set' === request.params.name`. */
function testedName(sourceCode: SourceCode, test: TSESTree.Expression): string | undefined {
  if (test.type !== AST_NODE_TYPES.BinaryExpression || (test.operator !== '===' && test.operator !== '==')) return undefined;
  const [value, other] = test.right.type === AST_NODE_TYPES.Literal ? [test.right, test.left] : [test.left, test.right];
  if (value.type !== AST_NODE_TYPES.Literal || typeof value.value !== 'string') return undefined;
  return isToolName(sourceCode, other) ? value.value : undefined;
}

/** `request.params.name`, or a `const` read from it (`const { name } = request.params`, `const name = request.params.name`). */
function isToolName(sourceCode: SourceCode, node: TSESTree.Node): boolean {
  const value = skipWrappers(node);
  if (value.type === AST_NODE_TYPES.MemberExpression) {
    return getStaticPropertyName(value) === 'name' && value.object.type === AST_NODE_TYPES.MemberExpression && getStaticPropertyName(value.object) === 'params';
  }
  if (value.type !== AST_NODE_TYPES.Identifier) return false;
  const def = ASTUtils.findVariable(sourceCode.getScope(value), value)?.defs[0];
  if (def?.type !== 'Variable' || !def.node.init) return false;
  if (def.node.id.type === AST_NODE_TYPES.Identifier) return isToolName(sourceCode, def.node.init);
  const init = skipWrappers(def.node.init);
  const fromParams = init.type === AST_NODE_TYPES.MemberExpression && getStaticPropertyName(init) === 'params';
  const property = def.node.id.type === AST_NODE_TYPES.ObjectPattern
    ? def.node.id.properties.find((candidate) => candidate.type === AST_NODE_TYPES.Property && candidate.value === def.name)
    : undefined;
  return fromParams && property?.type === AST_NODE_TYPES.Property && property.key.type === AST_NODE_TYPES.Identifier && property.key.name === 'name';
}
