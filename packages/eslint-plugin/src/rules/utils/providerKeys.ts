import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/utils';

import { someDescendant } from '../../ast/index.js';
import { createProviderRecogniser, findPassedKey } from '../../effects/index.js';
import { createKeyNameMatcher, findConstantKey } from '../../keys/index.js';

/**
 * Whether `handler` calls a keyed provider (Stripe, an HTTP call that takes an `Idempotency-Key`,
 * as `require-key-passthrough` recognises them with its default options) and gives it no key or a
 * constant one: `require-key-passthrough` (recommended beside the rule that asks) reports that
 * call, names it and says where the tool's key goes (with a suggestion), so a rule that would only
 * say "the handler never reads its key" stays silent: one fault, one report (new-user trial 7:
 * `stripe.refunds.create(...)` with no key in a with_key tool got `require-key-passthrough`'s
 * missingKey and `no-unsafe-retry-policy`'s withKeyUnused on the same handler). A random key there
 * is `no-random-key`'s (see randomKeys.ts).
 */
export function passesNoKeyToProvider(sourceCode: Readonly<TSESLint.SourceCode>, handler: TSESTree.Node): boolean {
  const recognise = createProviderRecogniser(sourceCode);
  const matchKeyName = createKeyNameMatcher();
  return someDescendant(handler, sourceCode, (node) => {
    const call = node.type === AST_NODE_TYPES.CallExpression ? recognise(node) : undefined;
    if (!call) return false;
    const passed = findPassedKey(call, sourceCode, matchKeyName);
    return passed.kind === 'missing' || (passed.kind === 'passed' && findConstantKey(passed.value, sourceCode) !== undefined);
  });
}
