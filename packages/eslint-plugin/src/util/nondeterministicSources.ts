import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import { getPerAttemptMemberSource } from './perAttemptSources.js';
import { getCallSource, getNewDateSource } from './randomAndClockSources.js';
import type { AllowedSource } from './replayStableSources.js';

// What makes a value differ between two attempts of the same work. The tables and checks live in:
// - randomAndClockSources.ts: random ids and the clock, recognised by their import;
// - perAttemptSources.ts: per-attempt and per-tool-call ids, retry-loop counters, in-memory counters;
// - replayStableSources.ts: what only looks random (Temporal) and the user's `allowedSources`.

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

/** What the source checks need: the file and the user's replay-stable sources. */
export interface SourceContext {
  readonly sourceCode: Readonly<TSESLint.SourceCode>;
  readonly allowedSources: readonly AllowedSource[];
}

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

// Re-exported so that every rule can keep importing the source analysis from this one module.
export { describeNode } from '../ast/index.js';
export { getBindingSource, isPerAttemptSubfield, PER_ATTEMPT_NAMES } from './perAttemptSources.js';
export { isGeneratedIdCallee, isGeneratorFactoryCall } from './randomAndClockSources.js';
export { type AllowedSource, isAllowedSource, REPLAY_STABLE_SOURCES } from './replayStableSources.js';
