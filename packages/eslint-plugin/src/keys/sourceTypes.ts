import type { TSESLint, TSESTree } from '@typescript-eslint/utils';

// The shapes every source module shares. They live apart from the modules that find sources so that
// those modules import the shapes, not one another (no import cycle, type-only included).

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
 * An import (or global) that is replay-stable and must not count as a source, written as in the
 * `allowedSources` option: `{ from: '@temporalio/workflow', name: 'uuid4' }`. `from` is a module
 * specifier (`node:` prefix optional) or `globalThis` for globals; `name` is the member path below it
 * (`'v4'`, `'Date.now'`, `'default'` for a default export).
 */
export interface AllowedSource {
  readonly from: string;
  readonly name: string;
}
