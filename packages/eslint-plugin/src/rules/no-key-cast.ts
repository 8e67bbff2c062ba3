import { SPEC_PACKAGE } from '../ast/index.js';
import {
  type Cast,
  createCastRule,
  findSpelledBrand,
  FORGED_BRAND_MESSAGES,
  judgesCastsIn,
  reportForgedCast,
} from './no-key-cast-utils/index.js';

export type Options = [];
export type MessageIds = 'forgedDurable' | 'forgedKey';

export default createCastRule<MessageIds>({
  name: 'no-key-cast',
  description: 'Disallow type assertions that forge a `DeterministicKey` or `Durable` brand',
  messages: {
    forgedKey: FORGED_BRAND_MESSAGES.forgedKey,
    forgedDurable: FORGED_BRAND_MESSAGES.forgedDurable,
  },
  create(context) {
    // A brand is recognised by its import from @retrysafe/spec (an import, a require or an
    // import type), so a file that never spells the package cannot forge one: skip it before the
    // package lookup and the scope lookups on every cast (bench/lint.mjs, docs/performance.md).
    if (!context.sourceCode.text.includes(SPEC_PACKAGE)) return {};
    if (!judgesCastsIn(context.filename)) return {};

    function check(node: Cast): void {
      const brand = findSpelledBrand(context.sourceCode, node);
      if (brand) reportForgedCast(context, node, brand);
    }

    return {
      TSAsExpression: check,
      TSTypeAssertion: check,
    };
  },
});
