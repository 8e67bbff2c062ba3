import type { TSESLint, TSESTree } from '@typescript-eslint/utils';

import { containsNode, someDescendant } from '../../ast/index.js';
import { createKeyJudge, type KeyJudge } from '../../keys/index.js';

/**
 * What `no-random-key` (recommended beside the rules that use this) reports in a with_key tool's
 * handler, judged as it judges (its default options): the rules that would report the same fault
 * on the same key stay silent, one report for one fault (new-user trial: a random key passed to
 * Stripe got no-random-key, require-key-passthrough and no-unsafe-retry-policy). Its message says
 * to pass the tool's key instead. The judge is made at the first question.
 */
export interface RandomKeyCheck {
  /** Whether `value`, the value of a key position, is one `no-random-key` reports: new on every attempt or call, or minted in `handler`. */
  isReported(value: TSESTree.Node, handler: TSESTree.Node): boolean;
  /** Whether `handler` gives some key position a value `no-random-key` reports. */
  passesReportedKey(handler: TSESTree.Node): boolean;
}

/** Creates the {@link RandomKeyCheck} of one file. */
export function createRandomKeyCheck(sourceCode: Readonly<TSESLint.SourceCode>): RandomKeyCheck {
  let judge: KeyJudge | undefined;
  const reported = (value: TSESTree.Node, handler: TSESTree.Node): boolean => {
    judge ??= createKeyJudge(sourceCode);
    const verdict = judge.judge(value);
    if (verdict === 'mintedOnce') {
      const source = judge.tracer.findSource(value);
      return source !== undefined && containsNode(handler, source.node);
    }
    return typeof verdict === 'object';
  };
  return {
    isReported(value, handler) {
      judge ??= createKeyJudge(sourceCode);
      const keyJudge = judge;
      if (!value.parent || !keyJudge.positionsAt(value.parent).some((position) => position.value === value)) return false;
      return reported(value, handler);
    },
    passesReportedKey(handler) {
      judge ??= createKeyJudge(sourceCode);
      const keyJudge = judge;
      return someDescendant(handler, sourceCode, (node) => keyJudge.positionsAt(node).some((position) => reported(position.value, handler)));
    },
  };
}
