import type { TSESLint, TSESTree } from '@typescript-eslint/utils';

import { codeSpan, containsNode, isFunctionNode, walk } from '../ast/index.js';
import { createKeyJudge, type KeyJudge } from '../keys/index.js';
import type { FoundEffect } from './effectsOfCall.js';

/**
 * What `inferPolicy`'s `newKeyOf` asks, for one file: the source of the key an effect's call passes
 * when no-random-key's judgement finds it new on every call. The same for the rule
 * (require-retry-policy's suggestion) and the audit (its inferred policy), so the two agree.
 */
export function createNewKeyFinder(sourceCode: Readonly<TSESLint.SourceCode>): (effect: FoundEffect) => string | undefined {
  let judge: KeyJudge | undefined;
  return (effect) => findNewKeySource(effect, (judge ??= createKeyJudge(sourceCode)), sourceCode);
}

/**
 * The source of the key `effect`'s call passes when no-random-key's judgement finds it new on every
 * call (random, clock, per-attempt or a counter): `` `randomUUID()` (line 17) ``. `undefined` for a
 * durable or persisted key, one minted once before an in-process retry or once per process (a
 * module-level `const key = randomUUID()`, the same on every call until a restart), or a call in
 * another file.
 */
function findNewKeySource(effect: FoundEffect, judge: KeyJudge, sourceCode: Readonly<TSESLint.SourceCode>): string | undefined {
  if (effect.fileName !== undefined) return undefined;
  const sourceAt = (node: TSESTree.Node): string | undefined => {
    for (const position of judge.positionsAt(node)) {
      const verdict = judge.judge(position.value);
      if (typeof verdict === 'object' && isMintedPerCall(verdict.node, effect.node)) return `${codeSpan(verdict.description)} (line ${verdict.node.loc.start.line})`;
    }
    return undefined;
  };
  // The key positions in the call's own text (`{ headers: { 'Idempotency-Key': randomUUID() } }`):
  // a key built apart and passed by name is judged where it is read.
  let found = sourceAt(effect.node);
  walk(effect.node, sourceCode, (node) => {
    found ??= sourceAt(node);
    return found === undefined;
  });
  return found;
}

/** Whether `source` is made anew each time `effect` runs: inside a function that also holds the effect. */
function isMintedPerCall(source: TSESTree.Node, effect: TSESTree.Node): boolean {
  for (let current = source.parent; current; current = current.parent) {
    if (isFunctionNode(current)) return containsNode(current, effect);
  }
  return false;
}
