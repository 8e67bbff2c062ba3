import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import { getChildNodes, getStaticPropertyName, isFunctionNode, isIncrementTarget, walk } from '../ast/index.js';

// Retry loops, told apart from batches: a loop that repeats the same work until it succeeds makes
// its counter per attempt (a key built from it is new on each attempt); a loop over items makes it
// an item's position, which is durable.

/** Names a retry counter goes by: `attempt`, `retries`, `tries`, `tryCount`. */
const RETRY_COUNTER_NAME = /attempt|retr|tries|^try/i;

/** A `for` counter of a retry loop: named like one, or counting a loop that repeats the work until it succeeds. */
export function isRetryLoopCounter(def: TSESLint.Scope.Definition, name: TSESTree.Identifier, sourceCode: Readonly<TSESLint.SourceCode>): boolean {
  if (def.type !== 'Variable') return false;
  const declaration = def.node.parent;
  const loop = declaration.parent;
  if (loop?.type !== AST_NODE_TYPES.ForStatement || loop.init !== declaration) return false;
  return RETRY_COUNTER_NAME.test(name.name) || isRetryLoop(loop, name.name, sourceCode);
}

/**
 * A loop that repeats the same work until it succeeds: it can leave early (a `return`, or a `break`
 * out of it, as `if (res.ok) return`), and its counter does not walk a collection. A batch runs to
 * its end and keys each item by its position, which is durable (`for (i < 10) { try { create(i) }
 * catch { log } }`), so a `try` alone does not make a retry loop.
 */
function isRetryLoop(loop: LoopNode, counter: string, sourceCode: Readonly<TSESLint.SourceCode>): boolean {
  return (leavesEarly(loop, sourceCode) || stopsOnSuccessFlag(loop, counter, sourceCode)) && !walksItems(loop, counter, sourceCode);
}

/**
 * `do { try { await send(); ok = true; } catch {} } while (!ok && ++k < 3)`, `while (!res.ok && k < 3)
 * { k++; res = await fetch(...) }`: the loop's test reads a variable, other than the counter, that
 * the body sets: the outcome of the work it repeats.
 */
function stopsOnSuccessFlag(loop: LoopNode, counter: string, sourceCode: Readonly<TSESLint.SourceCode>): boolean {
  const test = 'test' in loop ? loop.test : null;
  if (!test) return false;
  const read = new Set<string>();
  const collect = (node: TSESTree.Node): boolean => {
    if (node.type === AST_NODE_TYPES.Identifier) read.add(node.name);
    return !isFunctionNode(node);
  };
  collect(test);
  walk(test, sourceCode, collect);
  read.delete(counter);
  if (read.size === 0) return false;
  return containsNode(loop.body, sourceCode, (node) =>
    node.type === AST_NODE_TYPES.AssignmentExpression &&
    node.left.type === AST_NODE_TYPES.Identifier &&
    read.has(node.left.name),
  );
}

/** A test of failure: `!res.ok`, `!res.ok || stopped`, `res.ok === false`. */
function isNegation(test: TSESTree.Expression): boolean {
  if (test.type === AST_NODE_TYPES.UnaryExpression) return test.operator === '!';
  if (test.type === AST_NODE_TYPES.LogicalExpression) return test.operator === '||' && (isNegation(test.left) || isNegation(test.right));
  if (test.type !== AST_NODE_TYPES.BinaryExpression || (test.operator !== '===' && test.operator !== '==')) return false;
  return [test.left, test.right].some((side) => side.type === AST_NODE_TYPES.Literal && side.value === false);
}

type LoopNode = TSESTree.DoWhileStatement | TSESTree.ForInStatement | TSESTree.ForOfStatement | TSESTree.ForStatement | TSESTree.WhileStatement;

/**
 * A `return` in the loop's body, or a `break` that leaves this loop (not an inner loop or `switch`),
 * on success: an exit in a `catch`, under a test of failure (`if (!res.ok) break`) or in the `else`
 * of any other test (`if (res.ok) {...} else break`) stops a batch at its first failure and does
 * not count.
 */
function leavesEarly(loop: LoopNode, sourceCode: Readonly<TSESLint.SourceCode>): boolean {
  const label = loop.parent?.type === AST_NODE_TYPES.LabeledStatement ? loop.parent.label.name : undefined;
  const visit = (node: TSESTree.Node, nested: boolean): boolean => {
    if (node.type === AST_NODE_TYPES.ReturnStatement) return true;
    if (node.type === AST_NODE_TYPES.BreakStatement) return node.label ? node.label.name === label : !nested;
    if (isFunctionNode(node) || node.type === AST_NODE_TYPES.CatchClause) return false;
    if (node.type === AST_NODE_TYPES.IfStatement) {
      // The branch taken on success: the `else` of a negated test, the `then` of any other.
      const onSuccess = isNegation(node.test) ? node.alternate : node.consequent;
      return onSuccess !== null && visit(onSuccess, nested);
    }
    const inner = nested || LOOP_TYPES.has(node.type) || node.type === AST_NODE_TYPES.SwitchStatement;
    return getChildNodes(node, sourceCode).some((child) => visit(child, inner));
  };
  return visit(loop.body, false);
}

/**
 * A counter that walks a collection is an item's position, not an attempt: the loop's test compares
 * with a `.length` or `.size`, or the body indexes with it (`items[i]`).
 */
function walksItems(loop: LoopNode, counter: string, sourceCode: Readonly<TSESLint.SourceCode>): boolean {
  const test = 'test' in loop ? loop.test : null;
  if (test?.type === AST_NODE_TYPES.BinaryExpression && [test.left, test.right].some(isLengthRead)) return true;
  return containsNode(loop.body, sourceCode, (node) =>
    node.type === AST_NODE_TYPES.MemberExpression &&
    node.computed &&
    node.property.type === AST_NODE_TYPES.Identifier &&
    node.property.name === counter,
  );
}

function isLengthRead(node: TSESTree.Node): boolean {
  const name = node.type === AST_NODE_TYPES.MemberExpression ? getStaticPropertyName(node) : undefined;
  return name === 'length' || name === 'size';
}

/**
 * A loop whose iterations are attempts of the same work: a `for` whose counter is a retry counter
 * ({@link isRetryLoopCounter}), or a `while` / `do` loop that stops on success
 * ({@link leavesEarly}, or a success flag in its test) and either tests a retry counter
 * (`attempt < 3`, `retries-- > 0`) or tries the work in a `try`. `for...of` and `for...in` walk items.
 */
export function isAttemptLoop(loop: TSESTree.Node, sourceCode: Readonly<TSESLint.SourceCode>): boolean {
  if (loop.type === AST_NODE_TYPES.ForStatement) {
    const declaration = loop.init?.type === AST_NODE_TYPES.VariableDeclaration ? loop.init : undefined;
    const counter = declaration?.declarations[0]?.id;
    if (counter?.type !== AST_NODE_TYPES.Identifier) return false;
    return RETRY_COUNTER_NAME.test(counter.name) || isRetryLoop(loop, counter.name, sourceCode);
  }
  if (loop.type !== AST_NODE_TYPES.WhileStatement && loop.type !== AST_NODE_TYPES.DoWhileStatement) return false;
  const testsCounter = containsNode(loop.test, sourceCode, (node) => node.type === AST_NODE_TYPES.Identifier && RETRY_COUNTER_NAME.test(node.name));
  const tries = containsNode(loop.body, sourceCode, (node) => node.type === AST_NODE_TYPES.TryStatement);
  if (!testsCounter && !tries) return false;
  return (leavesEarly(loop, sourceCode) || stopsOnSuccessFlag(loop, '', sourceCode)) && !walksItems(loop, '', sourceCode);
}

/**
 * A `let` declared outside a loop and bumped inside it (body, test or update) that the loop reads:
 * the loop's attempt counter when it is bumped in a `catch` (it counts failures), or when the loop
 * is a retry loop ({@link isRetryLoop}). `while (true) { count++; try { return ... } catch {} }`.
 */
export function isBumpedOnFailure(
  variable: TSESLint.Scope.Variable,
  reference: TSESTree.Identifier,
  sourceCode: Readonly<TSESLint.SourceCode>,
): boolean {
  const def = variable.defs[0];
  if (def?.type !== 'Variable' || def.node.parent.kind === 'const' || def.name.type !== AST_NODE_TYPES.Identifier) return false;
  const counter = def.name.name;
  return variable.references.some((candidate) => {
    if (!isIncrementTarget(candidate.identifier)) return false;
    const { loop, inCatch } = getEnclosingLoop(candidate.identifier);
    if (!loop || reference.range[0] < loop.range[0] || loop.range[1] < reference.range[1]) return false;
    return inCatch ? !walksItems(loop, counter, sourceCode) : isRetryLoop(loop, counter, sourceCode);
  });
}

/** The innermost loop around `node` within the same function, and whether a `catch` lies between. */
function getEnclosingLoop(node: TSESTree.Node): { loop: LoopNode | undefined; inCatch: boolean } {
  let inCatch = false;
  for (let current = node.parent; current && !isFunctionNode(current); current = current.parent) {
    if (current.type === AST_NODE_TYPES.CatchClause) inCatch = true;
    else if (LOOP_TYPES.has(current.type)) return { loop: current as LoopNode, inCatch };
  }
  return { loop: undefined, inCatch };
}

const LOOP_TYPES: ReadonlySet<AST_NODE_TYPES> = new Set([
  AST_NODE_TYPES.DoWhileStatement,
  AST_NODE_TYPES.ForInStatement,
  AST_NODE_TYPES.ForOfStatement,
  AST_NODE_TYPES.ForStatement,
  AST_NODE_TYPES.WhileStatement,
]);

/** Whether `root` or a node below it (not inside a nested function) passes `test`. */
function containsNode(root: TSESTree.Node, sourceCode: Readonly<TSESLint.SourceCode>, test: (node: TSESTree.Node) => boolean): boolean {
  if (test(root)) return true;
  if (isFunctionNode(root)) return false;
  return getChildNodes(root, sourceCode).some((child) => containsNode(child, sourceCode, test));
}
