import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import { describeNode, getMemberChain, getStaticPropertyName, isIncrementTarget } from '../ast/index.js';
import { isBumpedOnFailure, isRetryLoopCounter } from './retryLoops.js';
import type { NondeterministicSource } from './sourceTypes.js';

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
  // `Context.current().info`: a chain through a call still ends in a name (Temporal's activity info).
  if (!chain) return node.type === AST_NODE_TYPES.MemberExpression ? getStaticPropertyName(node) : undefined;
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

/** A `let` kept outside the reading function and bumped there: it restarts at its initial value. */
function isClosureCounter(variable: TSESLint.Scope.Variable, reference: TSESTree.Identifier): boolean {
  const def = variable.defs[0];
  if (def?.type !== 'Variable' || def.node.parent.kind === 'const') return false;
  const read = variable.references.find((candidate) => candidate.identifier === reference);
  if (!read || read.from.variableScope === variable.scope.variableScope) return false;
  return variable.references.some((candidate) => isIncrementTarget(candidate.identifier));
}
