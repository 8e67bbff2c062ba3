import type { TSESTree } from '@typescript-eslint/utils';

import { SPEC_PACKAGE } from '../ast/index.js';
import {
  findBrandInTypeNode,
  FORGED_BRAND_MESSAGES,
  getCastTargetText,
  getForgedBrandMessageId,
  isConstAssertion,
} from '../brands/index.js';
import { isInSpecPackage } from '../program/index.js';
import { createRule } from './utils/index.js';

export type Options = [];
export type MessageIds = 'forgedDurable' | 'forgedKey';

export default createRule<Options, MessageIds>({
  name: 'no-key-cast',
  meta: {
    type: 'problem',
    docs: {
      description: 'Disallow type assertions that forge a `DeterministicKey` or `Durable` brand',
      recommended: 'recommended',
      requiresTypeChecking: false,
    },
    messages: {
      forgedKey: FORGED_BRAND_MESSAGES.forgedKey,
      forgedDurable: FORGED_BRAND_MESSAGES.forgedDurable,
    },
    schema: [],
    defaultOptions: [],
  },
  create(context) {
    // A brand is recognised by its import from @retrysafe/spec (an import, a require or an
    // import type), so a file that never spells the package cannot forge one: skip it before the
    // package lookup and the scope lookups on every cast (bench/lint.mjs, docs/performance.md).
    if (!context.sourceCode.text.includes(SPEC_PACKAGE)) return {};
    // @retrysafe/spec constructs its own brands: that is what the module-private symbols are for.
    if (isInSpecPackage(context.filename)) return {};

    function check(node: TSESTree.TSAsExpression | TSESTree.TSTypeAssertion): void {
      if (isConstAssertion(node)) return;
      const brand = findBrandInTypeNode(context.sourceCode, node.typeAnnotation);
      if (!brand) return;
      context.report({
        node,
        messageId: getForgedBrandMessageId(brand),
        data: { target: getCastTargetText(context.sourceCode, node.typeAnnotation) },
      });
    }

    return {
      TSAsExpression: check,
      TSTypeAssertion: check,
    };
  },
});
