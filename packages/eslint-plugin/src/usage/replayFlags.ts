import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import { type FunctionNode, getPropertyKeyName, getReturnedExpressions, isFunctionNode, resolveLocalFunction, skipWrappers, walk } from '../ast/index.js';
import type { ToolDefinition } from '../tools/index.js';
import { getRunnerUse } from './runners.js';

// Whether a tool's response tells "did it" from "already done", the seed's third audit question:
// "Return the original result, flagged as a replay — the model needs to know the action happened,
// not that it failed."

type SourceCode = Readonly<TSESLint.SourceCode>;

/**
 * Property names that flag a replayed or already-done result: the spec's `replayed`, and the names
 * handlers written by hand use for the same (`alreadyDone`, `already_processed`, `duplicate`, Stripe's
 * `idempotent-replayed` header copied into the result).
 */
const REPLAY_FLAG = /^(replayed|is_?replay(ed)?|already_?(done|processed|exists|applied|sent)|duplicate|deduplicated|idempotent_?replayed|idempotent-replayed)$/i;

/** How a tool's response flags a replay. */
export type ReplaySignal =
  /** A `defineTool` tool: the runner (and every adapter) answers `{ result, replayed }`. */
  | { readonly kind: 'runner'; readonly node: TSESTree.Node }
  /** The handler returns an object with a replay flag, or the result of a runner call. */
  | { readonly kind: 'flag'; readonly node: TSESTree.Node }
  /** The handler is visible and none of what it returns carries a flag. */
  | { readonly kind: 'none'; readonly node: TSESTree.Node }
  /** The handler is not visible in this file. */
  | { readonly kind: 'unknown' };

/** Whether a property name is a replay flag (`replayed`, `alreadyDone`, ...). */
export function isReplayFlagName(name: string): boolean {
  return REPLAY_FLAG.test(name);
}

/** How the response of `tool` flags a replay, as far as this file shows. */
export function findReplaySignal(sourceCode: SourceCode, tool: ToolDefinition): ReplaySignal {
  if (tool.framework === 'retrysafe') return { kind: 'runner', node: tool.node };
  const handler = tool.handler && resolveLocalFunction(tool.handler, sourceCode);
  if (!handler) return { kind: 'unknown' };
  const flag = findReturnedFlag(sourceCode, handler);
  return flag ? { kind: 'flag', node: flag } : { kind: 'none', node: handler };
}

/** A replay flag or a runner call's result in what `fn` returns (its own returns, not nested functions'). */
function findReturnedFlag(sourceCode: SourceCode, fn: FunctionNode): TSESTree.Node | undefined {
  for (const returned of getReturnedExpressions(fn, sourceCode)) {
    const found = findFlagIn(sourceCode, returned);
    if (found) return found;
  }
  return undefined;
}

function findFlagIn(sourceCode: SourceCode, expression: TSESTree.Node): TSESTree.Node | undefined {
  let found: TSESTree.Node | undefined;
  const visit = (node: TSESTree.Node): boolean => {
    if (found || isFunctionNode(node)) return false;
    if (node.type === AST_NODE_TYPES.Property) {
      const name = getPropertyKeyName(node, sourceCode);
      if (name !== undefined && isReplayFlagName(name)) found = node;
    } else if (node.type === AST_NODE_TYPES.CallExpression && getRunnerUse(sourceCode, node)?.via.startsWith('runner.')) {
      found = node;
    } else if (node.type === AST_NODE_TYPES.Identifier && isReplayFlagName(node.name)) {
      found = node; // `return { ...result, replayed }` written as a shorthand is a Property; a bare flag read counts too
    }
    return !found;
  };
  const root = skipWrappers(expression, { awaits: true });
  if (visit(root)) walk(root, sourceCode, visit);
  return found;
}
