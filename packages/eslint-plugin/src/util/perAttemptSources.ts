import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import { describeNode, getChildNodes, getMemberChain, getStaticPropertyName, isFunctionNode, isIncrementTarget, walk } from '../ast/index.js';
import type { NondeterministicSource } from './nondeterministicSources.js';

// Values that are new on every attempt without being random: ids a framework hands out per tool call
// or per attempt, a retry loop's counter, and counters kept in memory and never persisted.

/**
 * Names of values that a framework or a retry loop hands out anew for every attempt or tool call:
 * AI SDK's `{ toolCallId }`, Trigger.dev's `ctx.attempt`, BullMQ's `job.attemptsMade`,
 * pg-boss's `retryCount`, Temporal's `info.attempt`. Matched on properties read and on bindings.
 */
export const PER_ATTEMPT_NAMES: ReadonlySet<string> = new Set([
  'attempt',
  'attemptCount',
  'attemptIndex',
  'attemptNo',
  'attemptNumber',
  'attemptsMade',
  'currentAttempt',
  'retryAttempt',
  'retryCount',
  'retryNumber',
  'toolCallId',
  'tool_call_id',
]);

/** Objects that stand for one tool call: their `id` / `callId` is per call (OpenAI Agents, LangChain). */
const TOOL_CALL_OBJECT_NAMES = new Set(['toolCall', 'tool_call', 'toolCallPart']);
const TOOL_CALL_ID_PROPERTIES = new Set(['id', 'callId', 'call_id']);
/** `ctx.attempt.number`: the member below a per-attempt object that carries the number. */
const PER_ATTEMPT_SUBFIELDS = new Set(['number', 'count', 'id', 'index']);
const RETRY_COUNTER_NAME = /attempt|retr|tries|^try/i;
/**
 * `attempt` alone is also a domain word (a quiz attempt, a purchase attempt, whose id is stored):
 * read as a property, it is per attempt only on an object a framework hands one execution, such
 * as Trigger.dev's `ctx.attempt`, Temporal's `info.attempt` or a queue job's `job.attempt`.
 */
const AMBIGUOUS_ATTEMPT_NAME = 'attempt';
const EXECUTION_CONTEXT_NAME =
  /^(ctx|context|info|job|task|run|execution|retry|options|opts|meta|metadata|details|event|message|msg)$|(Context|Ctx|Info|Job|Task|Execution|Options)$/;

/** `number` in `ctx.attempt.number`: a member of a per-attempt object that still is per attempt. */
export function isPerAttemptSubfield(name: string): boolean {
  return PER_ATTEMPT_SUBFIELDS.has(name);
}

/** `ctx.attempt`, `details.toolCall.callId`, `ctx.attempt.number`: a property read that is per attempt. */
export function getPerAttemptMemberSource(
  node: TSESTree.MemberExpression,
  sourceCode: Readonly<TSESLint.SourceCode>,
): NondeterministicSource | undefined {
  const property = getStaticPropertyName(node);
  if (property === undefined) return undefined;
  const objectName = getLastName(node.object);
  const isPerAttempt =
    isPerAttemptProperty(node, property) ||
    (TOOL_CALL_ID_PROPERTIES.has(property) && objectName !== undefined && TOOL_CALL_OBJECT_NAMES.has(objectName)) ||
    (PER_ATTEMPT_SUBFIELDS.has(property) &&
      node.object.type === AST_NODE_TYPES.MemberExpression &&
      objectName !== undefined &&
      isPerAttemptProperty(node.object, objectName));
  return isPerAttempt ? { kind: 'perAttempt', description: describeNode(node, sourceCode), node } : undefined;
}

/** `job.attemptsMade`, `options.toolCallId`; `ctx.attempt` but not `quiz.attempt` (see {@link EXECUTION_CONTEXT_NAME}). */
function isPerAttemptProperty(node: TSESTree.MemberExpression, property: string): boolean {
  if (!PER_ATTEMPT_NAMES.has(property)) return false;
  if (property !== AMBIGUOUS_ATTEMPT_NAME) return true;
  const objectName = getLastName(node.object);
  return objectName !== undefined && EXECUTION_CONTEXT_NAME.test(objectName);
}

/**
 * Is this binding a per-attempt value or an unpersisted counter, judged by how it is declared?
 * - a parameter or variable named like an attempt or a tool-call id (see {@link PER_ATTEMPT_NAMES}),
 *   also when destructured (`{ toolCallId }`, `{ attempt: n }`);
 * - the counter of a retry loop: `for (let attempt = 0; ...)`, a `for` counter of a loop that stops
 *   when the work succeeds (a `return` or `break`) and does not walk items (`i < items.length`,
 *   `items[i]`), or a variable bumped inside such a loop or in a `catch` inside the loop that reads it;
 * - a counter kept outside the function that reads it (closure or module) and bumped with `++` / `+=`.
 *
 * `reference` is the identifier that reads the binding.
 */
export function getBindingSource(
  variable: TSESLint.Scope.Variable,
  reference: TSESTree.Identifier,
  sourceCode: Readonly<TSESLint.SourceCode>,
): NondeterministicSource | undefined {
  const def = variable.defs[0];
  if (def?.name.type !== AST_NODE_TYPES.Identifier) return undefined;
  const name = def.name;
  if (isPerAttemptBinding(def, name)) return { kind: 'perAttempt', description: name.name, node: name };
  if (isRetryLoopCounter(def, name, sourceCode) || isBumpedOnFailure(variable, reference, sourceCode)) {
    return { kind: 'perAttempt', description: name.name, node: name };
  }
  if (isClosureCounter(variable, reference)) return { kind: 'counter', description: name.name, node: name };
  return undefined;
}

/** The last static name of `a.b.c` (`'c'`) or of an identifier; `undefined` otherwise. */
function getLastName(node: TSESTree.Node): string | undefined {
  const chain = getMemberChain(node);
  if (!chain) return undefined;
  const last = chain[chain.length - 1];
  return typeof last === 'string' ? last : last?.name;
}

function isPerAttemptBinding(def: TSESLint.Scope.Definition, name: TSESTree.Identifier): boolean {
  if (def.type !== 'Parameter' && def.type !== 'Variable') return false;
  if (isConstantDeclaration(def)) return false;
  if (PER_ATTEMPT_NAMES.has(name.name)) return true;
  // `{ toolCallId: id }` and `{ attempt: n }` rename a per-attempt property.
  const parent = name.parent;
  return (
    parent?.type === AST_NODE_TYPES.Property &&
    parent.value === name &&
    parent.key.type === AST_NODE_TYPES.Identifier &&
    !parent.computed &&
    PER_ATTEMPT_NAMES.has(parent.key.name)
  );
}

/** `const attempt = 1`: a name alone does not make a constant per-attempt. */
function isConstantDeclaration(def: TSESLint.Scope.Definition): boolean {
  if (def.type !== 'Variable') return false;
  const declarator = def.node;
  return declarator.parent.kind === 'const' && declarator.init?.type === AST_NODE_TYPES.Literal;
}

function isRetryLoopCounter(def: TSESLint.Scope.Definition, name: TSESTree.Identifier, sourceCode: Readonly<TSESLint.SourceCode>): boolean {
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
 * A `let` declared outside a loop and bumped inside it (body, test or update) that the loop reads:
 * the loop's attempt counter when it is bumped in a `catch` (it counts failures), or when the loop
 * is a retry loop ({@link isRetryLoop}). `while (true) { count++; try { return ... } catch {} }`.
 */
function isBumpedOnFailure(
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

/** A `let` kept outside the reading function and bumped there: it restarts at its initial value. */
function isClosureCounter(variable: TSESLint.Scope.Variable, reference: TSESTree.Identifier): boolean {
  const def = variable.defs[0];
  if (def?.type !== 'Variable' || def.node.parent.kind === 'const') return false;
  const read = variable.references.find((candidate) => candidate.identifier === reference);
  if (!read || read.from.variableScope === variable.scope.variableScope) return false;
  return variable.references.some((candidate) => isIncrementTarget(candidate.identifier));
}
