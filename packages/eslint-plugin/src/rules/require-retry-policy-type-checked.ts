import type { TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES, ESLintUtils } from '@typescript-eslint/utils';
import type ts from 'typescript';

import { getStaticPropertyName, GLOBAL_SOURCE, resolveReference, skipWrappers } from '../ast/index.js';
import {
  createToolRecogniser,
  fromAddTool,
  fromAddTools,
  fromFactory,
  fromMcpRegistration,
  type ToolDefinition,
} from '../tools/index.js';
import { type DeclaredToolFactory, findDeclaredToolFactory, programHasToolFramework, typescript } from '../program/index.js';
import { createPolicyRule, reportPolicyProblems } from './require-retry-policy-utils/index.js';

export type { PolicyMessageIds as MessageIds, PolicyRuleOptions as Options } from './require-retry-policy-utils/index.js';

export default createPolicyRule({
  name: 'require-retry-policy-type-checked',
  description:
    'Require agent tools defined through a renamed or re-exported factory to declare their retry policy',
  create(context, [{ toolFactories }]) {
    const services = ESLintUtils.getParserServices(context);
    // The checker recognises a factory or server method by the package declaring it: a program
    // without any framework's files defines no tool that only types reveal (docs/performance.md).
    if (!programHasToolFramework(services.program)) return {};
    const checker = services.program.getTypeChecker();
    const sourceCode = context.sourceCode;
    const userFactories = toolFactories ?? [];
    // What require-retry-policy sees (with the same options): those tools are its to report.
    const syntactic = createToolRecogniser(sourceCode, { toolFactories: userFactories });
    // What each imported name is, asked once per file: most imports are called many times.
    const factoriesByImport = new Map<string, DeclaredToolFactory | undefined>();

    /** The tools a call defines through a factory or server that only the checker recognises. */
    function recogniseByDeclaration(node: TSESTree.CallExpression | TSESTree.NewExpression): readonly ToolDefinition[] {
      const callee = skipWrappers(node.callee, { optionalChains: true });
      // Every factory takes a config (or a name and a config).
      if (node.arguments.length === 0) return [];
      const method = node.type === AST_NODE_TYPES.CallExpression ? getServerMethod(callee) : undefined;
      // Only an import can bring a framework's factory in under another name; a server's methods
      // can be reached through any variable.
      const reference = method ? undefined : resolveReference(sourceCode, callee);
      if (!method && (!reference || reference.source === GLOBAL_SOURCE)) return [];
      const importKey = reference && `${reference.source}\0${reference.path.join('.')}`;
      let factory = importKey === undefined ? undefined : factoriesByImport.get(importKey);
      if (importKey === undefined || !factoriesByImport.has(importKey)) {
        factory = findDeclaredToolFactory(checker, getCalleeName(services.esTreeNodeToTSNodeMap.get(callee)));
        if (importKey !== undefined) factoriesByImport.set(importKey, factory);
      }
      if (!factory || (factory.kind === 'serverMethod') !== (method !== undefined)) return [];
      if (method) return fromServerMethod(node as TSESTree.CallExpression, method);
      // The shared reading of a factory call (config, name, `declarePolicy(...)`, LangChain metadata),
      // with the framework the declaration names.
      return [fromFactory(sourceCode, node, { ...factory, sources: [], exportPath: '' })];
    }

    /** The shared reading of an MCP SDK registration or a FastMCP `addTool` / `addTools` call. */
    function fromServerMethod(node: TSESTree.CallExpression, method: ServerMethod): readonly ToolDefinition[] {
      if (method === 'addTools') return fromAddTools(sourceCode, node);
      const tool = method === 'addTool' ? fromAddTool(sourceCode, node) : fromMcpRegistration(sourceCode, node);
      return tool ? [tool] : [];
    }

    function visit(node: TSESTree.CallExpression | TSESTree.NewExpression): void {
      if (syntactic.definitionsAt(node).length > 0) return;
      reportPolicyProblems(context, recogniseByDeclaration(node));
    }

    return { CallExpression: visit, NewExpression: visit };
  },
});

/** The methods that add tools to a server: the MCP SDK's `McpServer`, FastMCP's `FastMCP`. */
type ServerMethod = 'addTool' | 'addTools' | 'registerTool' | 'tool';
const SERVER_METHODS: ReadonlySet<string> = new Set<ServerMethod>(['addTool', 'addTools', 'registerTool', 'tool']);

/** `x.registerTool(...)`, `x.tool(...)`, `x.addTool(...)` or `x.addTools(...)`: a server's method, whatever `x` is. */
function getServerMethod(callee: TSESTree.Node): ServerMethod | undefined {
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const method = getStaticPropertyName(callee);
  return isServerMethod(method) ? method : undefined;
}

function isServerMethod(name: string | undefined): name is ServerMethod {
  return name !== undefined && SERVER_METHODS.has(name);
}

/** The node the checker names the callee by: the property name of `a.b`, else the callee itself. */
function getCalleeName(callee: ts.Node): ts.Node {
  return typescript.isPropertyAccessExpression(callee) ? callee.name : callee;
}
