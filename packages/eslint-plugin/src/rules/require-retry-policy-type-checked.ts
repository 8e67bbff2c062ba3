import type { TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES, ESLintUtils } from '@typescript-eslint/utils';
import type ts from 'typescript';

import { skipWrappers } from '../util/astNodes.js';
import { createRule } from '../util/createRule.js';
import { type DeclaredToolFactory, findDeclaredToolFactory } from '../util/declaredToolFactories.js';
import { fromFactory } from '../util/frameworkFactories.js';
import { getStaticPropertyName, GLOBAL_SOURCE, resolveReference } from '../util/imports.js';
import { fromMcpRegistration } from '../util/mcpTools.js';
import requireRetryPolicy, { type MessageIds } from './require-retry-policy.js';
import { judgePolicyDeclaration } from '../util/retryPolicyJudgement.js';
import { createToolRecogniser, type ToolDefinition, type ToolFactory, toolFactoriesSchema } from '../util/toolRecognisers.js';
import { typescript } from '../util/typescript.js';

export type Options = [{ toolFactories?: ToolFactory[] }];
export type { MessageIds };

export default createRule<Options, MessageIds>({
  name: 'require-retry-policy-type-checked',
  meta: {
    type: 'problem',
    docs: {
      description: 'Require agent tools defined through a renamed or re-exported factory to declare their retry policy',
      recommended: 'recommended',
      requiresTypeChecking: true,
    },
    // The same wording as require-retry-policy: a tool reads the same whichever rule found it.
    messages: requireRetryPolicy.meta.messages,
    schema: [
      {
        type: 'object',
        additionalProperties: false,
        properties: { toolFactories: toolFactoriesSchema },
      },
    ],
    defaultOptions: [{ toolFactories: [] }],
  },
  create(context, [{ toolFactories }]) {
    const services = ESLintUtils.getParserServices(context);
    const checker = services.program.getTypeChecker();
    const sourceCode = context.sourceCode;
    const userFactories = toolFactories ?? [];
    // What require-retry-policy sees (with the same options): those tools are its to report.
    const syntactic = createToolRecogniser(sourceCode, { toolFactories: userFactories });
    // What each imported name is, asked once per file: most imports are called many times.
    const factoriesByImport = new Map<string, DeclaredToolFactory | undefined>();

    /** The tool a call defines through a factory or server that only the checker recognises. */
    function recogniseByDeclaration(node: TSESTree.CallExpression | TSESTree.NewExpression): ToolDefinition | undefined {
      const callee = skipWrappers(node.callee, { optionalChains: true });
      // Every factory takes a config (or a name and a config).
      if (node.arguments.length === 0) return undefined;
      const registration = node.type === AST_NODE_TYPES.CallExpression && isMcpRegistration(callee);
      // Only an import can bring a framework's factory in under another name; a server's methods
      // can be reached through any variable.
      const reference = registration ? undefined : resolveReference(sourceCode, callee);
      if (!registration && (!reference || reference.source === GLOBAL_SOURCE)) return undefined;
      const importKey = reference && `${reference.source}\0${reference.path.join('.')}`;
      let factory = importKey === undefined ? undefined : factoriesByImport.get(importKey);
      if (importKey === undefined || !factoriesByImport.has(importKey)) {
        factory = findDeclaredToolFactory(checker, getCalleeName(services.esTreeNodeToTSNodeMap.get(callee)));
        if (importKey !== undefined) factoriesByImport.set(importKey, factory);
      }
      if (!factory || (factory.framework === 'mcp') !== registration) return undefined;
      if (factory.framework === 'mcp') return fromMcpRegistration(sourceCode, node as TSESTree.CallExpression);
      // The shared reading of a factory call (config, name, `declarePolicy(...)`, LangChain metadata),
      // with the framework the declaration names.
      return fromFactory(sourceCode, node, { ...factory, sources: [], exportPath: '' });
    }

    function visit(node: TSESTree.CallExpression | TSESTree.NewExpression): void {
      if (syntactic.definitionsAt(node).length > 0) return;
      const tool = recogniseByDeclaration(node);
      const problem = tool && judgePolicyDeclaration(sourceCode, tool);
      if (problem) context.report({ loc: problem.loc, messageId: problem.messageId, data: problem.data });
    }

    return { CallExpression: visit, NewExpression: visit };
  },
});

/** `x.registerTool(...)` or `x.tool(...)`: an MCP server's method, whatever `x` is. */
function isMcpRegistration(callee: TSESTree.Node): boolean {
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return false;
  const method = getStaticPropertyName(callee);
  return method === 'registerTool' || method === 'tool';
}

/** The node the checker names the callee by: the property name of `a.b`, else the callee itself. */
function getCalleeName(callee: ts.Node): ts.Node {
  return typescript.isPropertyAccessExpression(callee) ? callee.name : callee;
}
