import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import {
  describeNode,
  getMemberChain,
  getPropertyKeyName,
  getStaticPropertyName,
  getThisParameterCount,
  isIncrementTarget,
  type ParameterReference,
  resolveReference,
} from '../ast/index.js';
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
  // SQS: a new receipt handle on every delivery of the same message (its `MessageId` is the durable one).
  'ReceiptHandle',
]);

/**
 * Imported values that are new on every attempt of a step: DBOS's `DBOS.stepID` (a step's position,
 * new per step) and `DBOS.executorID` (the process). `DBOS.workflowID` is the durable one.
 */
const PER_ATTEMPT_IMPORTS: readonly { readonly from: string; readonly name: string }[] = [
  { from: '@dbos-inc/dbos-sdk', name: 'DBOS.stepID' },
  { from: '@dbos-inc/dbos-sdk', name: 'DBOS.executorID' },
];

/** Where a framework hands a tool's handler its per-invocation config: a parameter of which function. */
type HandlerPosition =
  /** `tool(fn, config)`: the function at `argument` of a call to `export`. */
  | { readonly call: string; readonly argument: number }
  /** `new DynamicStructuredTool({ func })`: the function at `property` of the first argument of `new`. */
  | { readonly construct: string; readonly property: string }
  /** `class X extends StructuredTool { _call(input, runManager, config) }`: a method of a subclass. */
  | { readonly extendsOneOf: readonly string[]; readonly method: string };

/**
 * A property of a framework handler's parameter that is new on every invocation of the tool
 * (docs/frameworks.md, "Durable runs", the "not durable" column). Matched only where the function is
 * that framework's handler (by its import), so a user's own `runId` (a retrysafe `run.id`, an input
 * field) is not one.
 */
export interface PerInvocationParameter {
  /** The catalogue id of the framework (tools/frameworks); tests check `modules` against it. */
  readonly framework: string;
  /** The modules the factory or class is imported from, as in the catalogue's `modules`. */
  readonly modules: readonly string[];
  readonly handler: HandlerPosition;
  /** Index of the parameter (without a `this` parameter). */
  readonly parameter: number;
  /** The property read on it, or destructured from it. */
  readonly property: string;
}

const LANGCHAIN_MODULES = ['@langchain/core/tools', 'langchain', 'langchain/tools'];
const LANGCHAIN_TOOL_CLASSES = ['DynamicStructuredTool', 'DynamicTool', 'StructuredTool', 'Tool'];

/**
 * LangChain's `RunnableConfig.runId` (new per invocation) in `tool(fn)`'s `config`, a
 * `DynamicStructuredTool` / `DynamicTool` `func`'s `(input, runManager, config)` and a tool class's
 * `_call(input, runManager, config)`, and the run manager's `runId` (the callback run, new per call).
 */
export const PER_INVOCATION_PARAMETERS: readonly PerInvocationParameter[] = [
  { framework: 'langchain', modules: LANGCHAIN_MODULES, handler: { call: 'tool', argument: 0 }, parameter: 1, property: 'runId' },
  ...['DynamicStructuredTool', 'DynamicTool'].flatMap((construct) =>
    [1, 2].map((parameter) => ({
      framework: 'langchain',
      modules: LANGCHAIN_MODULES,
      handler: { construct, property: 'func' },
      parameter,
      property: 'runId',
    })),
  ),
  ...[1, 2].map((parameter) => ({
    framework: 'langchain',
    modules: LANGCHAIN_MODULES,
    handler: { extendsOneOf: LANGCHAIN_TOOL_CLASSES, method: '_call' },
    parameter,
    property: 'runId',
  })),
];

/**
 * `config.runId` in a LangChain tool's handler (also `{ runId }` destructured from that parameter): a
 * property of a framework handler's parameter that is new on every invocation (see
 * {@link PER_INVOCATION_PARAMETERS}). `undefined` for any other parameter.
 */
export function getPerInvocationParameterSource(
  parameter: ParameterReference,
  sourceCode: Readonly<TSESLint.SourceCode>,
): NondeterministicSource | undefined {
  const [property] = parameter.path;
  if (property === undefined || parameter.path.length > 1 || parameter.rest) return undefined;
  const entry = PER_INVOCATION_PARAMETERS.find(
    (candidate) =>
      candidate.parameter === parameter.index &&
      candidate.property === property &&
      isHandlerAt(parameter.fn, candidate.handler, candidate.modules, sourceCode),
  );
  if (!entry) return undefined;
  const node = parameter.fn.params[parameter.index + getThisParameterCount(parameter.fn)];
  if (!node) return undefined;
  const description = node.type === AST_NODE_TYPES.Identifier ? `${node.name}.${property}` : property;
  return { kind: 'perAttempt', description, node };
}

function isHandlerAt(fn: ParameterReference['fn'], position: HandlerPosition, modules: readonly string[], sourceCode: Readonly<TSESLint.SourceCode>): boolean {
  const isFrom = (node: TSESTree.Node, names: readonly string[]): boolean => {
    const reference = resolveReference(sourceCode, node);
    return reference !== undefined && modules.includes(reference.source) && names.includes(reference.path.join('.'));
  };
  const parent = fn.parent;
  if ('call' in position) {
    const passedAt = (node: TSESTree.Node): boolean =>
      node.parent?.type === AST_NODE_TYPES.CallExpression && node.parent.arguments[position.argument] === node && isFrom(node.parent.callee, [position.call]);
    if (passedAt(fn)) return true;
    // A handler declared apart and passed by name: `function h(input, config) {}` or
    // `const h = async (input, config) => …`, then `tool(h, …)`.
    const declaration = fn.type === AST_NODE_TYPES.FunctionDeclaration ? fn : parent?.type === AST_NODE_TYPES.VariableDeclarator && parent.init === fn ? parent : undefined;
    if (declaration === undefined) return false;
    return sourceCode.getDeclaredVariables(declaration).some((variable) => variable.references.some((reference) => passedAt(reference.identifier)));
  }
  if ('construct' in position) {
    if (parent?.type !== AST_NODE_TYPES.Property || parent.value !== fn || getPropertyKeyName(parent) !== position.property) return false;
    const config = parent.parent;
    const created = config.parent;
    return created?.type === AST_NODE_TYPES.NewExpression && created.arguments[0] === config && isFrom(created.callee, [position.construct]);
  }
  if (parent?.type !== AST_NODE_TYPES.MethodDefinition || parent.value !== fn || getPropertyKeyName(parent) !== position.method) return false;
  const superClass = parent.parent.parent.superClass;
  return superClass !== null && superClass !== undefined && isFrom(superClass, position.extendsOneOf);
}

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
  const imported = resolveReference(sourceCode, node);
  const isPerAttempt =
    (imported !== undefined && PER_ATTEMPT_IMPORTS.some((entry) => entry.from === imported.source && entry.name === imported.path.join('.'))) ||
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
