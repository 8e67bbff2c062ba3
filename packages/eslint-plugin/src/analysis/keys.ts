import type { TSESLint, TSESTree } from '@typescript-eslint/utils';

import { walk } from '../ast/index.js';
import {
  createKeyJudge,
  getNondeterministicSource,
  KEY_POSITION_NODE_TYPES,
  type KeyJudgeOptions,
  type KeyPositionKind,
  mayHaveKeyPositions,
  type NondeterministicSource,
  type SourceKind,
} from '../keys/index.js';

type SourceCode = Readonly<TSESLint.SourceCode>;

/** The key names and replay-stable sources in force: the key rules' `keyNames` and `allowedSources` options. */
export type KeyAnalysisOptions = KeyJudgeOptions;

/** Where a key's value changes between two attempts of the same work. */
export interface KeySource {
  /**
   * `random` (a fresh id: `randomUUID()`, `nanoid()`), `clock` (`Date.now()`, `new Date()`),
   * `perAttempt` (a tool call id, a retry loop's counter, `ctx.attempt`), `counter` (an in-memory
   * counter never persisted).
   */
  readonly kind: SourceKind;
  /** The source as messages show it: `randomUUID()`, `details.toolCall.callId`. */
  readonly description: string;
  /** Where the value is produced. */
  readonly node: TSESTree.Node;
  readonly loc: TSESTree.SourceLocation;
}

/** A place whose value becomes a deduplication key, and what the value is made of. */
export interface KeyUse {
  /** How the key is written: a key-named property or field, a header, `key\`...\`` or a `defineTool` key function. */
  readonly kind: KeyPositionKind;
  /** The key name as configured (`Idempotency-Key`), or `key` / `vouchDurable` for the spec's constructors. */
  readonly keyName: string;
  /** The expression whose value becomes the key. */
  readonly value: TSESTree.Expression;
  /** The non-deterministic source the value comes from; `undefined` when the file shows none. */
  readonly source: KeySource | undefined;
  /** The value is stored before it is used (a get-or-create), so a retry reads it back: durable whatever made it. */
  readonly persisted: boolean;
  /**
   * A random or clock value made once before an in-process retry (a retry helper's callback, a retry
   * loop, a recursive retry) and reused by every attempt: the same key on each retry, as Stripe's
   * SDK and the IETF idempotency-key draft do it.
   */
  readonly mintedOnceBeforeRetry: boolean;
}

const KEY_NODE_TYPES: ReadonlySet<string> = new Set(KEY_POSITION_NODE_TYPES);

/**
 * Every key position of one file (the places `no-random-key` judges), in source order, each with
 * the source its value comes from, traced within the file as `no-random-key` traces it.
 *
 * @param sourceCode The file, as a rule's `context.sourceCode` gives it (scopes analysed).
 */
export function findKeys(sourceCode: SourceCode, options: KeyAnalysisOptions = {}): readonly KeyUse[] {
  if (!mayHaveKeyPositions(sourceCode, options.keyNames)) return [];
  const judge = createKeyJudge(sourceCode, options);
  const uses: KeyUse[] = [];
  walk(sourceCode.ast, sourceCode, (node) => {
    if (!KEY_NODE_TYPES.has(node.type)) return true;
    for (const position of judge.positionsAt(node)) {
      const verdict = judge.judge(position.value);
      uses.push({
        kind: position.kind,
        keyName: position.keyName,
        value: position.value,
        source: verdict === 'persisted' || verdict === 'mintedOnce' ? undefined : toKeySource(verdict),
        persisted: verdict === 'persisted',
        mintedOnceBeforeRetry: verdict === 'mintedOnce',
      });
    }
    return true;
  });
  return uses;
}

/**
 * The non-deterministic source that the value of `expression` comes from, followed within its file
 * through bindings, templates, operators, helpers, class members and defaults; `undefined` when every
 * path ends in something durable or not visible, or when the value is stored before it is used.
 */
export function traceKey(sourceCode: SourceCode, expression: TSESTree.Node, options: KeyAnalysisOptions = {}): KeySource | undefined {
  const verdict = createKeyJudge(sourceCode, options).judge(expression);
  return verdict === 'persisted' || verdict === 'mintedOnce' ? undefined : toKeySource(verdict);
}

/**
 * Every value in one file that differs between two attempts of the same work (a random id, the
 * clock, a per-attempt id or counter), wherever it is used, judged node by node as the tracer judges
 * the end of a path: the values a key must not be built from.
 */
export function findSources(sourceCode: SourceCode, options: Pick<KeyAnalysisOptions, 'allowedSources'> = {}): readonly KeySource[] {
  const context = { sourceCode, allowedSources: options.allowedSources ?? [] };
  const sources: KeySource[] = [];
  walk(sourceCode.ast, sourceCode, (node) => {
    const source = SOURCE_NODE_TYPES.has(node.type) ? toKeySource(getNondeterministicSource(node, context)) : undefined;
    if (source) sources.push(source);
    return true;
  });
  return sources;
}

const SOURCE_NODE_TYPES: ReadonlySet<string> = new Set(['CallExpression', 'MemberExpression', 'NewExpression']);

function toKeySource(source: NondeterministicSource | undefined): KeySource | undefined {
  return source && { kind: source.kind, description: source.description, node: source.node, loc: source.node.loc };
}
