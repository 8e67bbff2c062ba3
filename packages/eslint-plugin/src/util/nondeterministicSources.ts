import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import { getMemberChain, getStaticPropertyName, GLOBAL_SOURCE, normalizeModuleName, resolveReference, type ResolvedReference } from './imports.js';

/**
 * Why a value differs between two attempts of the same work:
 * - `random`: a fresh random id (`randomUUID()`, `nanoid()`, `Math.random()` ...);
 * - `clock`: the current time (`Date.now()`, `new Date()` ...), which moves between attempts;
 * - `perAttempt`: an id or number the framework or the retry loop hands out per attempt or per tool
 *   call (`toolCallId`, `ctx.attempt.number`, a retry loop's counter);
 * - `counter`: an in-memory counter kept in a closure or a class field and never persisted.
 */
export type SourceKind = 'clock' | 'counter' | 'perAttempt' | 'random';

/** A value that is not the same on a retry, a resumed run or a redelivered job. */
export interface NondeterministicSource {
  readonly kind: SourceKind;
  /** Short code for messages, e.g. `randomUUID()`, `new Date()`, `details.toolCall.callId`. */
  readonly description: string;
  /** Where the value is produced; its line is the one a message names. */
  readonly node: TSESTree.Node;
}

/**
 * An import (or global) that is replay-stable and must not count as a source, written as in the
 * `allowedSources` option: `{ from: '@temporalio/workflow', name: 'uuid4' }`. `from` is a module
 * specifier (`node:` prefix optional) or `globalThis` for globals; `name` is the member path below it
 * (`'v4'`, `'Date.now'`, `'default'` for a default export).
 */
export interface AllowedSource {
  readonly from: string;
  readonly name: string;
}

/** What the source checks need: the file and the user's replay-stable sources. */
export interface SourceContext {
  readonly sourceCode: Readonly<TSESLint.SourceCode>;
  readonly allowedSources: readonly AllowedSource[];
}

/**
 * Replay-stable ids that look like random ones: Temporal's workflow `uuid4()` is recorded in the
 * workflow history and returns the same value on replay. (Restate's `ctx.rand` is never matched
 * because it is a member of the handler's context, not an import.)
 */
export const REPLAY_STABLE_SOURCES: readonly AllowedSource[] = [{ from: '@temporalio/workflow', name: 'uuid4' }];

interface SourceTable {
  readonly kind: 'clock' | 'random';
  /** Module (normalised, see {@link normalizeModuleName}) or {@link GLOBAL_SOURCE}. */
  readonly from: string;
  /** Member paths joined with `.`; `''` is the module itself (a default import called directly). */
  readonly names: readonly string[];
  /** The call is a source only without arguments (`dayjs()` is now, `dayjs(createdAt)` is not). */
  readonly onlyWithoutArguments?: boolean;
}

/** Calls whose result is random or the current time. uuid v3/v5 are name-based and deterministic. */
const CALL_SOURCES: readonly SourceTable[] = [
  {
    kind: 'random',
    from: 'crypto',
    names: ['randomUUID', 'randomBytes', 'randomInt', 'randomFill', 'randomFillSync', 'pseudoRandomBytes', 'getRandomValues', 'webcrypto.randomUUID', 'webcrypto.getRandomValues'],
  },
  { kind: 'random', from: GLOBAL_SOURCE, names: ['crypto.randomUUID', 'crypto.getRandomValues', 'Math.random'] },
  { kind: 'random', from: 'uuid', names: ['v1', 'v4', 'v6', 'v7', 'default.v1', 'default.v4', 'default.v6', 'default.v7'] },
  { kind: 'random', from: 'nanoid', names: ['nanoid'] },
  { kind: 'random', from: 'nanoid/non-secure', names: ['nanoid'] },
  { kind: 'random', from: 'ulid', names: ['ulid'] },
  { kind: 'random', from: 'ulidx', names: ['ulid'] },
  { kind: 'random', from: 'cuid', names: ['', 'default', 'slug'] },
  { kind: 'random', from: '@paralleldrive/cuid2', names: ['createId'] },
  { kind: 'random', from: 'uuidv7', names: ['uuidv7'] },
  { kind: 'random', from: 'short-uuid', names: ['generate'] },
  { kind: 'clock', from: GLOBAL_SOURCE, names: ['Date', 'Date.now', 'performance.now', 'process.hrtime', 'process.hrtime.bigint'] },
  { kind: 'clock', from: 'perf_hooks', names: ['performance.now'] },
  { kind: 'clock', from: 'process', names: ['hrtime', 'hrtime.bigint', 'default.hrtime', 'default.hrtime.bigint'] },
  { kind: 'clock', from: 'luxon', names: ['DateTime.now', 'DateTime.local', 'DateTime.utc'], onlyWithoutArguments: true },
  { kind: 'clock', from: 'dayjs', names: ['', 'default'], onlyWithoutArguments: true },
  { kind: 'clock', from: 'moment', names: ['', 'default'], onlyWithoutArguments: true },
];

/** Calls that return a random-id generator: `const newId = customAlphabet('abc', 10); newId()`. */
const GENERATOR_FACTORIES: readonly SourceTable[] = [
  { kind: 'random', from: 'nanoid', names: ['customAlphabet', 'customRandom'] },
  { kind: 'random', from: 'nanoid/non-secure', names: ['customAlphabet'] },
  { kind: 'random', from: 'ulid', names: ['monotonicFactory', 'factory'] },
  { kind: 'random', from: 'ulidx', names: ['monotonicFactory', 'factory'] },
  { kind: 'random', from: '@paralleldrive/cuid2', names: ['init'] },
];

/** Globals that Temporal's workflow sandbox makes deterministic (seeded, replayed from history). */
const TEMPORAL_DETERMINISTIC_GLOBALS = new Set(['Date', 'Date.now', 'Math.random']);

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
const MAX_DESCRIPTION_LENGTH = 40;

/**
 * Is `node` itself a non-deterministic value? Looks at this node only (a call, a `new`, a property
 * read); following a value back through variables and helpers is {@link createValueTracer}'s job.
 * Imports decide: `v4` from `uuid` is random, `uuid4` from `@temporalio/workflow` is not, and a
 * source listed in `context.allowedSources` is never one.
 */
export function getNondeterministicSource(node: TSESTree.Node, context: SourceContext): NondeterministicSource | undefined {
  switch (node.type) {
    case AST_NODE_TYPES.CallExpression:
      return getCallSource(node, context);
    case AST_NODE_TYPES.NewExpression:
      return getNewDateSource(node, context);
    case AST_NODE_TYPES.MemberExpression:
      return getPerAttemptMemberSource(node, context.sourceCode);
    default:
      return undefined;
  }
}

/**
 * Is the import or global that `callee` reads on the allow list (the user's `allowedSources` or
 * {@link REPLAY_STABLE_SOURCES})? `undefined` callees (locals) are never allowed.
 */
export function isAllowedSource(reference: ResolvedReference | undefined, allowedSources: readonly AllowedSource[]): boolean {
  if (!reference) return false;
  const name = joinPath(reference);
  return [...REPLAY_STABLE_SOURCES, ...allowedSources].some(
    (allowed) => normalizeAllowedModule(allowed.from) === reference.source && allowed.name === name,
  );
}

/**
 * Is this binding a per-attempt value or an unpersisted counter, judged by how it is declared?
 * - a parameter or variable named like an attempt or a tool-call id (see {@link PER_ATTEMPT_NAMES}),
 *   also when destructured (`{ toolCallId }`, `{ attempt: n }`);
 * - the counter of a retry loop (`for (let attempt = 0; ...)`, or any `for` counter whose body
 *   catches errors and tries again);
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
  if (isRetryLoopCounter(def, name, sourceCode)) return { kind: 'perAttempt', description: name.name, node: name };
  if (isClosureCounter(variable, reference)) return { kind: 'counter', description: name.name, node: name };
  return undefined;
}

/**
 * Does a call return a random-id generator (`customAlphabet(...)`, ulid's `monotonicFactory()`,
 * cuid2's `init()`)? A call of what it returns is then a random source.
 */
export function isGeneratorFactoryCall(node: TSESTree.Node, context: SourceContext): boolean {
  if (node.type !== AST_NODE_TYPES.CallExpression) return false;
  const reference = resolveReference(context.sourceCode, node.callee);
  return findInTable(GENERATOR_FACTORIES, reference, context) !== undefined;
}

/** `number` in `ctx.attempt.number`: a member of a per-attempt object that still is per attempt. */
export function isPerAttemptSubfield(name: string): boolean {
  return PER_ATTEMPT_SUBFIELDS.has(name);
}

/** A short, single-line rendering of `node` for messages. */
export function describeNode(node: TSESTree.Node, sourceCode: Readonly<TSESLint.SourceCode>): string {
  const text = sourceCode.getText(node).replace(/\s+/g, ' ');
  if (text.length <= MAX_DESCRIPTION_LENGTH) return text;
  if (node.type === AST_NODE_TYPES.CallExpression || node.type === AST_NODE_TYPES.NewExpression) {
    const prefix = node.type === AST_NODE_TYPES.NewExpression ? 'new ' : '';
    return `${prefix}${describeNode(node.callee, sourceCode)}(…)`;
  }
  return `${text.slice(0, MAX_DESCRIPTION_LENGTH - 1)}…`;
}

function getCallSource(node: TSESTree.CallExpression, context: SourceContext): NondeterministicSource | undefined {
  const reference = resolveReference(context.sourceCode, node.callee);
  const entry = findInTable(CALL_SOURCES, reference, context);
  if (!entry || (entry.onlyWithoutArguments && node.arguments.length > 0)) return undefined;
  return { kind: entry.kind, description: describeNode(node, context.sourceCode), node };
}

/** `new Date()` without arguments is now; `new Date(createdAt)` is whatever `createdAt` is. */
function getNewDateSource(node: TSESTree.NewExpression, context: SourceContext): NondeterministicSource | undefined {
  if (node.arguments.length > 0) return undefined;
  const reference = resolveReference(context.sourceCode, node.callee);
  if (reference?.source !== GLOBAL_SOURCE || joinPath(normalizeGlobal(reference)) !== 'Date') return undefined;
  if (isAllowed(reference, context)) return undefined;
  return { kind: 'clock', description: 'new Date()', node };
}

function getPerAttemptMemberSource(
  node: TSESTree.MemberExpression,
  sourceCode: Readonly<TSESLint.SourceCode>,
): NondeterministicSource | undefined {
  const property = getStaticPropertyName(node);
  if (property === undefined) return undefined;
  const objectName = getLastName(node.object);
  const isPerAttempt =
    PER_ATTEMPT_NAMES.has(property) ||
    (TOOL_CALL_ID_PROPERTIES.has(property) && objectName !== undefined && TOOL_CALL_OBJECT_NAMES.has(objectName)) ||
    (PER_ATTEMPT_SUBFIELDS.has(property) && objectName !== undefined && PER_ATTEMPT_NAMES.has(objectName));
  return isPerAttempt ? { kind: 'perAttempt', description: describeNode(node, sourceCode), node } : undefined;
}

/** The last static name of `a.b.c` (`'c'`) or of an identifier; `undefined` otherwise. */
function getLastName(node: TSESTree.Node): string | undefined {
  const chain = getMemberChain(node);
  if (!chain) return undefined;
  const last = chain[chain.length - 1];
  return typeof last === 'string' ? last : last?.name;
}

function findInTable(table: readonly SourceTable[], reference: ResolvedReference | undefined, context: SourceContext): SourceTable | undefined {
  if (!reference || isAllowed(reference, context)) return undefined;
  const normalized = normalizeGlobal(reference);
  const name = joinPath(normalized);
  return table.find((entry) => entry.from === normalized.source && entry.names.includes(name));
}

function isAllowed(reference: ResolvedReference, context: SourceContext): boolean {
  const normalized = normalizeGlobal(reference);
  if (isAllowedSource(normalized, context.allowedSources)) return true;
  return (
    normalized.source === GLOBAL_SOURCE &&
    TEMPORAL_DETERMINISTIC_GLOBALS.has(joinPath(normalized)) &&
    isTemporalWorkflowFile(context.sourceCode)
  );
}

/** `globalThis.crypto.randomUUID` and `window.crypto.randomUUID` read the same global as `crypto.randomUUID`. */
function normalizeGlobal(reference: ResolvedReference): ResolvedReference {
  if (reference.source !== GLOBAL_SOURCE) return reference;
  const [first, ...rest] = reference.path;
  const isGlobalObject = first === 'globalThis' || first === 'window' || first === 'self' || first === 'global';
  return isGlobalObject && rest.length > 0 ? { source: GLOBAL_SOURCE, path: rest } : reference;
}

function normalizeAllowedModule(from: string): string {
  return from === 'globalThis' ? GLOBAL_SOURCE : normalizeModuleName(from);
}

function joinPath(reference: ResolvedReference): string {
  return reference.path.join('.');
}

const temporalWorkflowFiles = new WeakMap<TSESTree.Program, boolean>();

/** Temporal workflow code runs in a sandbox where `Date` and `Math.random` replay deterministically. */
function isTemporalWorkflowFile(sourceCode: Readonly<TSESLint.SourceCode>): boolean {
  const program = sourceCode.ast;
  let result = temporalWorkflowFiles.get(program);
  if (result === undefined) {
    result = program.body.some(
      (statement) =>
        statement.type === AST_NODE_TYPES.ImportDeclaration &&
        statement.importKind !== 'type' &&
        statement.source.value === '@temporalio/workflow',
    );
    temporalWorkflowFiles.set(program, result);
  }
  return result;
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
  return RETRY_COUNTER_NAME.test(name.name) || containsTryStatement(loop.body, sourceCode);
}

/** A `try` in the loop body (not in a nested function) makes the loop a retry loop. */
function containsTryStatement(root: TSESTree.Node, sourceCode: Readonly<TSESLint.SourceCode>): boolean {
  if (root.type === AST_NODE_TYPES.TryStatement) return true;
  if (isFunctionNode(root)) return false;
  const keys = sourceCode.visitorKeys[root.type] ?? [];
  for (const key of keys) {
    const value = (root as unknown as Record<string, unknown>)[key];
    const children = Array.isArray(value) ? value : [value];
    for (const child of children) {
      if (isNode(child) && containsTryStatement(child, sourceCode)) return true;
    }
  }
  return false;
}

/** A `let` kept outside the reading function and bumped there: it restarts at its initial value. */
function isClosureCounter(variable: TSESLint.Scope.Variable, reference: TSESTree.Identifier): boolean {
  const def = variable.defs[0];
  if (def?.type !== 'Variable' || def.node.parent.kind === 'const') return false;
  const read = variable.references.find((candidate) => candidate.identifier === reference);
  if (!read || read.from.variableScope === variable.scope.variableScope) return false;
  return variable.references.some((candidate) => isIncrementTarget(candidate.identifier));
}

/** Is `target` bumped in place: `target++`, `--target`, `target += n`, `target -= n`? */
export function isIncrementTarget(target: TSESTree.Node): boolean {
  const parent = target.parent;
  if (parent?.type === AST_NODE_TYPES.UpdateExpression) return true;
  return (
    parent?.type === AST_NODE_TYPES.AssignmentExpression &&
    parent.left === target &&
    (parent.operator === '+=' || parent.operator === '-=')
  );
}


function isFunctionNode(node: TSESTree.Node): boolean {
  return (
    node.type === AST_NODE_TYPES.FunctionDeclaration ||
    node.type === AST_NODE_TYPES.FunctionExpression ||
    node.type === AST_NODE_TYPES.ArrowFunctionExpression
  );
}

function isNode(value: unknown): value is TSESTree.Node {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}
