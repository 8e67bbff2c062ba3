import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import { type FunctionNode, getStaticPropertyName, isFunctionNode, containsNode, resolveReference, someDescendant } from '../ast/index.js';
import { isAttemptLoop } from './retryLoops.js';
import type { NondeterministicSource } from './sourceTypes.js';

// Where the attempts of an in-process retry are: the function handed to a retry helper, the body of
// a retry loop, a function that retries by calling itself. A key minted before such a scope and
// used inside it is the same on every attempt: what Stripe's SDK does with the key it makes for a
// request, and what the IETF idempotency-key draft recommends (a UUID minted once, reused on each
// retry). Minted inside the scope, it is new on every attempt.

type SourceCode = Readonly<TSESLint.SourceCode>;

/**
 * Retry helpers, as data: the packages' exports (`p-retry`'s default, `async-retry`'s default,
 * `exponential-backoff`'s `backOff`, `@lifeomic/attempt`'s `retry`, `ts-retry-promise`'s `retry`,
 * `promise-retry`'s default), and a local or imported function named like one (`withRetry`,
 * `retryAsync`, `retryWithBackoff`): each calls the function it is given once per attempt.
 */
export const RETRY_HELPERS: readonly { readonly from: string; readonly names: readonly string[] }[] = [
  { from: 'p-retry', names: ['default', ''] },
  { from: 'async-retry', names: ['default', ''] },
  { from: 'promise-retry', names: ['default', ''] },
  { from: 'exponential-backoff', names: ['backOff'] },
  { from: '@lifeomic/attempt', names: ['retry'] },
  { from: 'ts-retry-promise', names: ['retry', 'retryDecorator'] },
];
/** A function named like a retry helper: `retry`, `withRetry`, `retryAsync`, `withRetries`, `retryWithBackoff`, `backoff`. */
const RETRY_HELPER_NAME = /^(with)?[rR]etr(y|ies)([A-Z]\w*)?$|^(with)?[bB]ack[oO]ff$/;

/** Is `call` a retry helper's call, and `fn` the function it retries (one of its arguments)? */
function isRetriedFunction(fn: FunctionNode, sourceCode: SourceCode): boolean {
  const call = fn.parent;
  if (call?.type !== AST_NODE_TYPES.CallExpression || !call.arguments.includes(fn as TSESTree.CallExpressionArgument)) return false;
  const callee = call.callee;
  const name =
    callee.type === AST_NODE_TYPES.Identifier ? callee.name
    : callee.type === AST_NODE_TYPES.MemberExpression ? getStaticPropertyName(callee)
    : undefined;
  if (name !== undefined && RETRY_HELPER_NAME.test(name)) return true;
  const reference = resolveReference(sourceCode, call.callee);
  const path = reference?.path.join('.');
  return reference !== undefined && RETRY_HELPERS.some((helper) => helper.from === reference.source && helper.names.includes(path ?? ''));
}

/** A function that calls itself by name: a recursive retry (`catch { return send(attempt + 1) }`). */
function isSelfCalling(fn: FunctionNode, sourceCode: SourceCode): boolean {
  const name =
    fn.type !== AST_NODE_TYPES.ArrowFunctionExpression && fn.id ? fn.id.name
    : fn.parent?.type === AST_NODE_TYPES.VariableDeclarator && fn.parent.id.type === AST_NODE_TYPES.Identifier ? fn.parent.id.name
    : undefined;
  if (name === undefined || !sourceCode.text.slice(fn.body.range[0], fn.body.range[1]).includes(`${name}(`)) return false;
  return someDescendant(fn.body, sourceCode, (node) => node.type === AST_NODE_TYPES.CallExpression && node.callee.type === AST_NODE_TYPES.Identifier && node.callee.name === name);
}

/** Whether `node` is a scope whose executions are attempts of the same work. */
function isRetryScope(node: TSESTree.Node, sourceCode: SourceCode): boolean {
  if (isFunctionNode(node)) return isRetriedFunction(node, sourceCode) || isSelfCalling(node, sourceCode);
  return isAttemptLoop(node, sourceCode);
}

const LOOP_TYPES = new Set<string>([AST_NODE_TYPES.ForStatement, AST_NODE_TYPES.WhileStatement, AST_NODE_TYPES.DoWhileStatement]);

/**
 * Is the random or clock value `source`, used as a key at `use`, minted once before an in-process
 * retry that `use` sits in? It is when a retry scope encloses `use` and not the place it is minted
 * (`mintedAt`: the source itself, or the call of a key helper that returns it), and that place is
 * in a function around that scope (not in a helper the scope calls, which runs on every attempt).
 * Per-attempt values and counters are never minted once.
 */
export function isMintedOnceBeforeRetry(
  use: TSESTree.Node,
  source: NondeterministicSource,
  sourceCode: SourceCode,
  mintedAt: TSESTree.Node = source.node,
): boolean {
  if (source.kind !== 'random' && source.kind !== 'clock') return false;
  const minted = mintedAt;
  const sourceFunction = enclosingFunction(minted);
  for (let scope = use.parent; scope; scope = scope.parent) {
    if (scope === sourceFunction) return false;
    if (!isFunctionNode(scope) && !LOOP_TYPES.has(scope.type)) continue;
    if (containsNode(scope, minted)) continue;
    if (isRetryScope(scope, sourceCode)) return sourceFunction === undefined || containsNode(sourceFunction, scope);
  }
  return false;
}

function enclosingFunction(node: TSESTree.Node): FunctionNode | undefined {
  for (let current = node.parent; current; current = current.parent) if (isFunctionNode(current)) return current;
  return undefined;
}

