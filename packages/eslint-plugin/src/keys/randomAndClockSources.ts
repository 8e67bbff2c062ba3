import type { TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import { describeNode, findVariableOf, GLOBAL_SOURCE, type ResolvedReference, resolveReference } from '../ast/index.js';
import { isInSeededWorkflow } from './durableEngines.js';
import { isReplayStable, normalizeGlobal } from './replayStableSources.js';
import type { NondeterministicSource, SourceContext } from './sourceTypes.js';

// Calls that return a fresh random id or the current time, recognised by their import:
// `v4` from `uuid` is random, `uuid4` from `@temporalio/workflow` is not.

interface SourceTable {
  readonly kind: 'clock' | 'random';
  /** Module (normalised, see `normalizeModuleName`) or {@link GLOBAL_SOURCE}. */
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

/** `randomUUID()`, `Date.now()`, `dayjs()` ...: a call whose result is random or the current time. */
export function getCallSource(node: TSESTree.CallExpression, context: SourceContext): NondeterministicSource | undefined {
  const reference = resolveReference(context.sourceCode, node.callee);
  const entry = findInTable(CALL_SOURCES, reference, context);
  if (!entry || (entry.onlyWithoutArguments && node.arguments.length > 0)) return undefined;
  if (reference?.source === GLOBAL_SOURCE && isInSeededWorkflow(node, context.sourceCode)) return undefined;
  return { kind: entry.kind, description: describeNode(node, context.sourceCode), node };
}

/** `new Date()` without arguments is now; `new Date(createdAt)` is whatever `createdAt` is. */
export function getNewDateSource(node: TSESTree.NewExpression, context: SourceContext): NondeterministicSource | undefined {
  if (node.arguments.length > 0) return undefined;
  const reference = resolveReference(context.sourceCode, node.callee);
  if (reference?.source !== GLOBAL_SOURCE || normalizeGlobal(reference).path.join('.') !== 'Date') return undefined;
  if (isReplayStable(reference, context) || isInSeededWorkflow(node, context.sourceCode)) return undefined;
  return { kind: 'clock', description: 'new Date()', node };
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

/** `newId` where `const newId = customAlphabet(...)`, or `customAlphabet(...)` itself: calling it makes a random id. */
export function isGeneratedIdCallee(callee: TSESTree.Node, context: SourceContext): boolean {
  if (isGeneratorFactoryCall(callee, context)) return true;
  if (callee.type !== AST_NODE_TYPES.Identifier) return false;
  const def = findVariableOf(callee, context.sourceCode)?.defs[0];
  return def?.type === 'Variable' && def.node.init !== null && isGeneratorFactoryCall(def.node.init, context);
}

function findInTable(table: readonly SourceTable[], reference: ResolvedReference | undefined, context: SourceContext): SourceTable | undefined {
  if (!reference || isReplayStable(reference, context)) return undefined;
  const normalized = normalizeGlobal(reference);
  const name = normalized.path.join('.');
  return table.find((entry) => entry.from === normalized.source && entry.names.includes(name));
}
