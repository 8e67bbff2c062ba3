import type { JSONSchema, TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import { codeSpan, findProperty } from '../ast/index.js';
import type { ToolFramework } from './frameworks/index.js';

// What a recognised tool definition looks like, whatever framework wrote it; the recognisers in
// recogniser.ts (and the per-framework files it uses) produce these, and the rules read them.

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

/** The options of a rule that judges tool definitions and takes nothing but `toolFactories`. */
export interface ToolRuleOptions {
  readonly toolFactories?: ToolFactory[];
}

/** The JSON schema of {@link ToolRuleOptions}, shared so the rules that judge tools take them alike. */
export const toolRuleOptionsSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { toolFactories: toolFactoriesSchema },
} satisfies JSONSchema.JSONSchema4;

/** The defaults of {@link ToolRuleOptions}: no factories beyond the built-in frameworks. */
export const toolRuleDefaultOptions: [Required<ToolRuleOptions>] = [{ toolFactories: [] }];

/** Where a tool's retry policy is written. */
export interface PolicyDeclaration {
  /**
   * `defineTool`: the fields of a `defineTool` (or `toolFactories`) config; `declarePolicy`: the
   * second argument of `declarePolicy(tool, policy)`; `mcpMeta`: MCP
   * `_meta["io.github.retrysafe/policy"]` (or the bare `_meta.retrysafe`); `langchainMetadata`:
   * LangChain `metadata.retrysafe`.
   */
  readonly via: 'declarePolicy' | 'defineTool' | 'langchainMetadata' | 'mcpMeta';
  /** The policy expression (the `declarePolicy` call itself when it has no second argument). */
  readonly node: TSESTree.Node;
  /** The policy's object literal, followed through `const` bindings; `undefined` when not visible. */
  readonly object: TSESTree.ObjectExpression | undefined;
}

/** A class that defines a tool by extending a framework's tool class (LangChain `extends StructuredTool`). */
export type ToolClassNode = TSESTree.ClassDeclaration | TSESTree.ClassExpression;

/** A node that may define tools, as rules visit them: a call, a `new`, or a class. */
export type ToolSiteNode = TSESTree.CallExpression | TSESTree.NewExpression | ToolClassNode;

/** A recognised tool definition. Parts that are not statically visible are `undefined`. */
export interface ToolDefinition {
  readonly framework: ToolFramework;
  /**
   * The defining call, `new` or class, or a tool object literal (listed by a low-level MCP server,
   * or one of several in FastMCP's `server.addTools([...])`).
   */
  readonly node: ToolSiteNode | TSESTree.ObjectExpression;
  /**
   * The config argument as written (for MCP `server.tool(...)` overloads there is none; a tool class
   * has fields instead).
   */
  readonly configNode: TSESTree.Node | undefined;
  /** The config's object literal, followed through `const` bindings; `undefined` when not visible. */
  readonly config: TSESTree.ObjectExpression | undefined;
  /**
   * `true` when no object literal is written for the config: a project's wrapper rebuilds it field by
   * field from the call's arguments (`{ description: t.description, annotations: t.hints }`), and
   * `config` is that config as registered, the wrapper's keys over the call's values
   * (tools/rebuiltConfigs.ts). Its location is the tool's site; no fix may write into it.
   */
  readonly configRebuilt?: true;
  /** The tool's name; for AI SDK tools the property or variable it is assigned to. */
  readonly name: string | undefined;
  readonly description: string | undefined;
  /** The input schema expression: zod shape or object, JSON Schema, or a reference to one. */
  readonly inputSchema: TSESTree.Node | undefined;
  /**
   * The handler: a function, or the expression that names one; for a low-level MCP tool, the branch
   * of the CallTool handler that runs for its name (a `case` or an `if` block).
   */
  readonly handler: TSESTree.Node | undefined;
  /** MCP tool annotations as written, and their object literal when visible. */
  readonly annotationsNode: TSESTree.Node | undefined;
  readonly annotations: TSESTree.ObjectExpression | undefined;
  /** The declared retry policy, if any. */
  readonly policy: PolicyDeclaration | undefined;
}

/**
 * Where a missing declaration is reported: from the start of the call to the end of its callee
 * (`tool`, `server.registerTool`, `new DynamicStructuredTool`), from a tool object's `{` to the end
 * of its `name`, or at a tool class's name (its `class` keyword when it has none).
 */
export function getToolLocation(sourceCode: Readonly<TSESLint.SourceCode>, tool: ToolDefinition): TSESTree.SourceLocation {
  const { node } = tool;
  if (node.type === AST_NODE_TYPES.ClassDeclaration || node.type === AST_NODE_TYPES.ClassExpression) {
    return (node.id ?? sourceCode.getFirstToken(node, { filter: (token) => token.value === 'class' }) ?? node).loc;
  }
  const end = node.type === AST_NODE_TYPES.ObjectExpression ? (findProperty(node, 'name') ?? node) : node.callee;
  return { start: node.loc.start, end: end.loc.end };
}

/** "Tool `refund_order`", or "This tool" when the name is not static. */
export function toolLabel(tool: Pick<ToolDefinition, 'name'>): string {
  return tool.name === undefined ? 'This tool' : `Tool ${codeSpan(tool.name)}`;
}
