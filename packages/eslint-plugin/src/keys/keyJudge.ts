import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import { createKeyNameMatcher, type KeyNameMatcher } from './keyNames.js';
import { getKeyPositions, KEY_POSITION_NODE_TYPES, type KeyPosition } from './keyPositions.js';
import { isPersistedAt } from './persistence.js';
import { isMintedOnceBeforeRetry } from './retryScopes.js';
import type { AllowedSource, NondeterministicSource } from './sourceTypes.js';
import { createValueTracer, type ValueTracer } from './valueTracer.js';

// The judgement of the key values of one file, as `no-random-key` makes it: which nodes make a key,
// and what each key's value is made of. The key rules and the programmatic analysis
// (`@retrysafe/eslint-plugin/analysis`) both judge through it, so they agree.

/** The key names and replay-stable sources in force (the key rules' options). */
export interface KeyJudgeOptions {
  /** Extra property or header names that carry a deduplication key (added to the defaults). */
  readonly keyNames?: readonly string[];
  /** Extra replay-stable imports or globals, e.g. `{ from: 'my-workflow-sdk', name: 'uuid' }`. */
  readonly allowedSources?: readonly AllowedSource[];
}

/** The judgement of key values in one file. */
export interface KeyJudge {
  readonly matchKeyName: KeyNameMatcher;
  /** The file's tracer (random, clock, per-attempt and counter sources within the file). */
  readonly tracer: ValueTracer;
  /** The key positions `node` creates (`node` is one of {@link KEY_POSITION_NODE_TYPES}). */
  positionsAt(node: TSESTree.Node): KeyPosition[];
  /** Listeners that hand every node that can hold a key position to `check`. */
  listeners(check: (node: TSESTree.Node) => void): Record<(typeof KEY_POSITION_NODE_TYPES)[number], (node: TSESTree.Node) => void>;
  /**
   * What a value used as a key is made of in this file: `'persisted'` when it is stored before use
   * (a get-or-create, durable whatever made it), `'mintedOnce'` when a random or clock value is made
   * once before an in-process retry and reused by every attempt (keys/retryScopes.ts), the
   * non-deterministic source it comes from, or `undefined` when the file shows none.
   */
  judge(value: TSESTree.Node): KeyVerdict;
}

/** What {@link KeyJudge.judge} finds a key's value is made of. */
export type KeyVerdict = NondeterministicSource | 'mintedOnce' | 'persisted' | undefined;

/** Creates the judge for one file, from the rule's options. */
export function createKeyJudge(sourceCode: Readonly<TSESLint.SourceCode>, options: KeyJudgeOptions = {}): KeyJudge {
  const matchKeyName = createKeyNameMatcher(options.keyNames ?? []);
  const tracer = createValueTracer(sourceCode, { allowedSources: options.allowedSources ?? [] });
  return {
    matchKeyName,
    tracer,
    positionsAt: (node) => getKeyPositions(node, { sourceCode, matchKeyName }),
    listeners: (check) => Object.fromEntries(KEY_POSITION_NODE_TYPES.map((type) => [type, check])) as ReturnType<KeyJudge['listeners']>,
    judge: (value) => judgeValue(value, sourceCode, tracer),
  };
}

function judgeValue(value: TSESTree.Node, sourceCode: Readonly<TSESLint.SourceCode>, tracer: ValueTracer): KeyVerdict {
  if (isPersistedAt(value, sourceCode)) return 'persisted';
  const reads = getBoundReads(value, sourceCode);
  // `const key = generateIdempotencyKey()`: the key is used where the variable is read.
  if (reads?.some((read) => isPersistedAt(read, sourceCode))) return 'persisted';
  const source = tracer.findSource(value);
  if (!source) return undefined;
  const uses = reads ?? [value];
  const mintedAt = reads ? value : source.node;
  return uses.length > 0 && uses.every((use) => isMintedOnceBeforeRetry(use, source, sourceCode, mintedAt)) ? 'mintedOnce' : source;
}

/** The reads of the variable that `value` initialises (`const key = value`), if it initialises one. */
function getBoundReads(value: TSESTree.Node, sourceCode: Readonly<TSESLint.SourceCode>): TSESTree.Identifier[] | undefined {
  const declarator = value.parent;
  if (declarator?.type !== AST_NODE_TYPES.VariableDeclarator || declarator.init !== value || declarator.id.type !== AST_NODE_TYPES.Identifier) return undefined;
  const variable = sourceCode.getDeclaredVariables(declarator)[0];
  return variable?.references.filter((reference) => reference.isRead()).map((reference) => reference.identifier as TSESTree.Identifier);
}
