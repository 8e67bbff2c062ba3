import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import { findProperty, getPropertyKeyName, resolveObject, resolveReference } from '../ast/index.js';
import { getRunnerUse, type RunnerUse } from './runners.js';

// Where an AI SDK tool gets the name a model sees: `tool({...})` has no name of its own, the name is
// its key in the tool set that holds it (`guardAiSdkTools({ issue_refund: refundTool }, ...)`,
// `generateText({ tools: { issue_refund: refundTool } })`). For `retrysafe audit`, which names the
// tool by that key wherever the set is (new-user trial 4: it was named by its variable, `refundTool`).

type SourceCode = Readonly<TSESLint.SourceCode>;

/** A tool set: the call that holds it, and each member under a static key. */
export interface ToolSet {
  /** The guard (`guardAiSdkTools` ...) or the AI SDK call (`generateText`, `streamText`, an agent class). */
  readonly via: string;
  readonly node: TSESTree.CallExpression | TSESTree.NewExpression;
  /** Members by their key as written, a string or an identifier (`{ issue_refund: refundTool }`, `{ issueRefund }`); computed keys are left out. */
  readonly members: readonly { readonly key: string; readonly value: TSESTree.Node }[];
}

/** The AI SDK's calls and classes that take a tool set as `tools` (AI SDK 6 and 7). */
const AI_SDK_TOOL_SET_CALLS = new Set(['generateText', 'streamText', 'Agent', 'ToolLoopAgent', 'Experimental_Agent']);
const AI_SDK_MODULES = new Set(['ai']);

/**
 * The tool set a call holds, if it holds one: a guard's first argument, or the `tools` option of an
 * AI SDK `generateText` / `streamText` call or agent (`new ToolLoopAgent({ tools })`), followed
 * through `const`s of the file. Spreads and computed keys are not members.
 */
export function getToolSet(
  sourceCode: SourceCode,
  node: TSESTree.CallExpression | TSESTree.NewExpression,
  /** The call's {@link getRunnerUse}, when the caller read it already (`null`: it has none); read here when omitted. */
  known?: RunnerUse | null,
): ToolSet | undefined {
  const use = known !== undefined ? known : node.type === AST_NODE_TYPES.CallExpression ? getRunnerUse(sourceCode, node) : undefined;
  if (use?.collection) return membersOf(sourceCode, use.via, node, use.tool);
  const reference = resolveReference(sourceCode, node.callee);
  const [name] = reference?.path ?? [];
  if (!reference || reference.path.length !== 1 || !AI_SDK_MODULES.has(reference.source) || name === undefined || !AI_SDK_TOOL_SET_CALLS.has(name)) return undefined;
  const tools = findProperty(resolveObject(sourceCode, node.arguments[0]), 'tools')?.value;
  return tools ? membersOf(sourceCode, name, node, tools) : undefined;
}

function membersOf(sourceCode: SourceCode, via: string, node: ToolSet['node'], set: TSESTree.Node): ToolSet | undefined {
  const object = resolveObject(sourceCode, set);
  if (!object) return undefined;
  const members = object.properties.flatMap((property) => {
    if (property.type !== AST_NODE_TYPES.Property || property.kind !== 'init') return [];
    const key = getPropertyKeyName(property);
    return key === undefined ? [] : [{ key, value: property.value }];
  });
  return { via, node, members };
}
